//! The online server's tests, one binary: each module tries one area against real servers
//! (`oaq-server` processes, PostgreSQL, Redis, SMTP) on loopback, through `oaq-testkit`'s client
//! of the protocol.

mod bad_input;
mod bots;
mod correspondence;
mod faults;
mod hostile;
mod model;
mod nodes;
mod notify;
mod people;
mod play;
mod policy;
mod pool;
mod safety;
mod surface;
mod tournaments;
mod training;
mod web_files;
