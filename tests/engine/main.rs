//! The engine, one test binary: the rules against a plain reference implementation and the
//! rule sheets' worked examples, properties over random games and rule sets, perft, the move
//! limits, the fuzz suite, and the computer player (levels, book, endgame tables, review).

mod checks;
mod reference;
mod support;

mod ai;
mod fuzz;
mod limits;
mod perft;
mod properties;
mod rule_sheet_examples;
