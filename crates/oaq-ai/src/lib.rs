//! The computer opponent: a search from Easy to Master, hints and analysis. Pure: no I/O and no
//! engine code, and it runs in slices where a long call is not allowed.
//!
//! # The search
//!
//! Pure Rust like the rules. An iterative-deepening alpha-beta search (principal variation search)
//! with a transposition table keyed by Zobrist hashes (pits, mandarin pieces, stores, debts, side to
//! move, and the ply, last moves and swap right while the rules make them matter), move ordering by
//! the table's move and a history of cutoffs, and a search to the game's end whenever the remaining
//! stones allow it (the report then says `solved`). On the 3-player board the search is paranoid
//! (both opponents play against it); in Table Flip it weighs `swap` like any move, for the player who swaps. It runs on an
//! explicit stack, so `Search::step(nodes)` can stop after any node and carry on later (the web
//! build runs it in slices where it has no thinking worker: [`remote`] says the work as a request
//! a worker answers); budgets are depth, nodes, time and a cancel flag, and it always has a
//! move. Master may search on every core (`Thinker::threads`): helper searches on other threads,
//! starting at other depths, share a lock-free transposition table (each slot an entry packed in
//! one word beside its key mixed with that word) while only the main search's answer counts. The
//! game gives Master every core but the one that draws; `oaq ai --threads N` defaults to all;
//! `oaq match` keeps every engine on one thread.
//!
//! The last three moves above the horizon are searched on the call stack without the table
//! (`near_leaves`): most nodes are there, and a table probe at each waited on memory (a profile put
//! 40% of the time on that one load). That, and move ordering by keys computed once per list, took
//! `oaq bench` from 3.6 to about 8 M nodes/s.
//!
//! **Late move reductions** (`Limits::reductions`, on for the levels that search as deep as their
//! time allows, for the hint and for the book; off for the levels held to a depth, whose ratings
//! were measured without them): in a null-window node six or more moves above the horizon, every
//! move after the first three is searched one move shallower first and again at full depth only
//! when it beats the window. A value proved by a reduced search is still the game's own (every
//! line of it ended), so reductions change no proved result (a test compares every proved value
//! with plain minimax). `oaq bench --depth 15`, the six positions (`standard`), 37.6 M nodes
//! without them and 16.5 M with them: the opening at depth 15 in 0.38–0.47 s instead of
//! 0.98–1.12 s, and in one second depth 16–17 instead of 14–15. In play they are even: level 10
//! with them against level 10 without, both at 0.2 s a move, 200 games on `basic`: paired margin
//! +0.86 ± 1.64 (positive on 40% of openings, zero on 22%, negative on 38%). Kept for the depth
//! (the target was 15 in a second) at no measured cost. Enhanced transposition cutoffs (asking the
//! table about every child before searching a node) were tried and dropped: 4,436,309 →
//! 4,434,021 nodes at depth 15 from the opening, and not one more endgame proved.
//!
//! **Proofs.** A value is proved (`Report::solved`) when every line behind it ended the game. A
//! cutoff's bound (at least this, where the searching side moves) is proved by the one move that
//! made it, whatever the moves tried before it; an exact value or the other bound needs every
//! move proved. With `Limits::outcome_only` a finished game is worth only a win, a draw or a
//! loss, and the root's window is exactly that wide, so one proved winning line ends the search:
//! the search proves who wins long before it could prove by how much (`oaq endgame --outcome`,
//! below).
//!
//! # The evaluation
//!
//! The evaluation (`crates/oaq-ai/src/eval.rs`) counts points already scored (100 per point) and eight
//! features of each side, its own minus its opponents': stones on its row; the same scaled by how
//! far the board has run down (none at 40 stones or more: the end-game race); stocked pits; the
//! move itself (tempo); the largest capture one of the mover's moves makes without a relay, and the
//! one the other side would have on its turn; points in mandarin pits beside an empty pit (for the
//! mover); and a refill due on the other side's turn. The weights are `assets/ai/weights.ron`.
//! Features weighted 0 cost nothing (the relay-free capture, the dearest, is skipped).
//!
//! `oaq fit --rules basic --seed 1 --games 2000 --depth 8` plays self-play games between depth-8
//! searches (a random two-move opening, then a 10% chance of a random move in each of the next 16
//! plies), takes every position after the last random move, and fits the weights by least squares
//! so that the evaluation predicts the final margin of the side to move less what it has already
//! scored (games stopped by the move limit are left out: endless borrowing decides nothing);
//! `--target-depth 12` fits to a depth-12 search's value instead of the game's end, `--rounds`
//! plays again with what it fitted, `--from FILE` starts elsewhere. `oaq match --a-weights FILE`
//! plays the result against the shipped weights. What it gave:
//!
//! | fit | positions | mean squared error, shipped → fitted (variance of the target) | level 7 with it against level 7 as shipped, paired margin (200 games, `--seed 3`) |
//! |---|---|---|---|
//! | `basic`, game ends | 29,988 | 228.6 → 212.2 (229.8) | `basic` −0.94 ± 2.02 (positive 28%, zero 24%, negative 48%) |
//! | `standard`, game ends | 33,931 | 228.3 → 210.6 (228.7) | `standard` −5.15 ± 9.60; `basic` −0.07 ± 2.03 |
//! | `basic`, depth-12 values, 400 games | 6,410 | 186.1 → 165.7 (184.7) | `basic` +0.11 ± 1.99 (43% / 21% / 36%); `standard` −8.32 ± 7.08 |
//! | `standard`, a second round with the first round's weights | 93,417 | 8378 → 4070 (8164) | (its weights drove the games into borrowing loops: the reason move-limit games are now left out) |
//!
//! No fit scores better than the shipped weights in paired matches (every interval covers zero),
//! so the shipped file keeps the earlier evaluation's values (row stones 40, stocked pits 25,
//! mandarin threat 30; the new features 0). The features explain a tenth of the variance at most:
//! what a position is worth depends on relays no static count foresees, and a ten-move search
//! already sees the captures the features describe.
//!
//! A capture search at the horizon (`Limits::quiescence`: captures followed for up to four moves,
//! the side to move free to stand on the evaluation) is measured by `oaq stability`, how well the
//! value of depth d predicts depth d + 2 on positions from self-play. On `basic`, 200 positions,
//! depth 6 against 8: evaluation at once, mean difference 3.33 points (root mean square 6.77), the
//! same best move 79.5%, 12,000 nodes a position; with the capture search 3.24 (6.51), 79.0%,
//! 31,000 nodes. A 3% steadier value for 2.6 times the nodes does not pay, so it is off.
//!
//! # The opening book, endgames, review and puzzles
//!
//! **The opening book** (`crates/oaq-ai/src/book.rs`, `assets/ai/book/PRESET.ron`): for every 2-player
//! preset, the start, each position after one move and, in Lật bàn, after one move and the swap
//! (11 positions; 21 in Lật bàn), with every move's value. `oaq book build --rules basic
//! --seconds 60` searches each position for that long, and the start, which Master meets in every
//! game it opens, three times as long (all moves with full windows, reductions below them, a
//! 256 MiB table, positions in parallel on `--jobs`), and rewrites the file after each one, so a
//! stopped build resumes (entries searched at least as long are kept; a file of another preset or
//! a broken one is refused by name). Master (`book: true` in `levels.ron`), the hint and `oaq ai
//! --level master` answer these positions from the book without searching. The shipped books,
//! two positions at a time on the two cores:
//!
//! | preset | seconds a position (start) | depth | value of the start for the first mover (not proved) |
//! |---|---|---|---|
//! | `basic` | 60 (180) | 21–23 | +36.85 (4+; 2- +35.60), depth 23 |
//! | `standard` | 60 (180) | 21–23 | +36.35 (2-; 4+ +35.60), depth 23 |
//! | `table-flip` | 40 (120) | 20–22 | −1.50 (5-), depth 22: the second player flips the table after 2- (+30.75 for them) or 2+ and 4-, so no opening keeps the first mover's edge |
//! | `young-mandarin` | 60 (180) | 18–21 | +14.15 (1+), depth 21 |
//! | `mature-quan` | 60 (180) | 19–21 | +14.15 (1+), depth 21 |
//! | `ten-seeds` | 60 (180) | 19–21 | +31.60 (2-), depth 21 |
//!
//! So the first mover's edge under `basic` and `standard` is about 36 points by depth 23 (it read
//! +24.45 at depth 16): the deeper the search, the more of the game's 70 points the opening move
//! is seen to be worth. No search here proves it: the game is far too long.
//!
//! **Endgames**: `oaq endgame --rules basic --stones 40 --down-to 6 --seconds 2` takes positions
//! with that many stones left on the board from self-play and reports how many a Master-length
//! search (2 s, one core) proves; `--outcome` proves only who wins. On `basic`, 8 positions a
//! count:
//!
//! | stones on the board | 40 | 38 | 36 | 34 | 32 | 30 | 28 | 26 | 24 | 22 | 20 | 18 | 16 | 14 | 12 | 10 | 8 | 6 |
//! |---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
//! | exact result proved | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 1 | 0 | 0 | 0 | 2 | 2 | 2 |
//! | who wins proved | 0 | 1 | 0 | 2 | 5 | 4 | 4 | 6 | 7 | 7 | 6 | 8 | 7 | 8 | 7 | 8 | 8 | 8 |
//! | mean seconds to prove who wins | 2.0 | 1.8 | 2.0 | 1.5 | 1.1 | 1.0 | 1.0 | 0.73 | 0.47 | 0.70 | 0.55 | 0.21 | 0.49 | 0.00 | 0.25 | 0.00 | 0.00 | 0.03 |
//!
//! So who wins is proved in most positions from 26 stones down (6 of 8 or more; all 8 at 18, 14
//! and from 10 down, mostly in milliseconds), and in half of them from 32. The exact final score
//! is proved in at most 2 of 8 at any count, as before this work: with the mandarin pieces still on
//! the board and a handful of stones, the game can run on for many moves (refills, the move limit
//! at 200) before anything decides it, and every such line must be seen to its end to fix the
//! margin, while a win needs only one winning line at each of the winner's turns. Tried for the
//! exact result: a cutoff proved by its own move (not every move before it), which lets a proved
//! win end the outcome search; enhanced transposition cutoffs, which proved nothing more (and
//! were dropped). The endgame tables below answer the exact margin where a search cannot.
//!
//! **Endgame tables** (`crates/oaq-ai/src/tablebase`, `oaq tablebase`): every position of `basic` with at
//! most `N` small stones on the board, each choice of mandarin pieces and every store of the side
//! to move, valued exactly (who wins, the final margin) by retrograde analysis counted in moves
//! before the move limit, so that cycles and the limit are part of it (see `tablebase::build`).
//! Master, the hint and the review look positions up at every node where the rules allow (the
//! `forfeit` refill, no protection, no repetition end; from far enough before the move limit).
//! What a table cannot know is a line that refills past its `N` stones: a refill adds five stones
//! to the board, so no set of positions with few stones is closed under play, and every value that
//! depends on such a line is left open (an interval, not a value). So the tables are partial:
//!
//! | `N` | boards × stores | build (2 cores) | memory | exact | file |
//! |---|---|---|---|---|---|
//! | 8 | 22,919,979 | 32.5 s, 55 rounds | 344 MB to build, 23 MB to use | 11.9% (30–38% of 1–3 stones, 5–14% of 8) | 0.5 MB |
//! | 10 (shipped) | 118,590,944 | 300 s, 79 rounds | 2.4 GB to build, 144 MB to use | 19.9% (32–66% of 1–3 stones, 11–21% of 10) | 3.2 MB |
//!
//! Rounds repeat with a period of 8 (`N` = 8) or 24 (`N` = 10); the values hold from 47 and 55
//! moves before the move limit. Of positions from self-play games with at most that many stones
//! (`oaq tablebase check`), the 8-stone table knows 20–21% and the 10-stone one 22.5%, where a
//! search of 0.5 s proves 11–17%; wherever both answer they agree (24 positions, none differ).
//! In play the exact endings are worth a lot: Master with the 10-stone table against Master
//! without, `basic`, 0.2 s a move, 200 games: paired margin +10.45 ± 2.09 (`--seed 3`; with the
//! table on the other side, `--seed 5`: −10.50 ± 2.03), wins even (97 to 96): the same games are
//! won and lost, by about ten points more or less. With the 8-stone table: +3.29 ± 1.70
//! (`--seed 3`), so the 10-stone one is shipped. A table is one byte an entry in memory (its
//! values are a palette of under 256 results) and loads on a thread of its own when a game it
//! serves begins (`tablebase::for_rules`). In the browser the thinking worker (`oaq-think`) has
//! the 8-stone table, `assets/ai/endgame-8.tb` (529,414 bytes to download, after its module and
//! only once: the service worker keeps it; 23 MB in the worker's memory, where the 10-stone
//! table's 144 MB is too much for a phone), so that Master, the hint and the review in the
//! worker look endings up as on a desktop, with fewer stones; the page's own thinking (where
//! there is no worker) goes without.
//!
//! **Learned evaluation** (`crates/oaq-ai/src/network`, `oaq train`): a small network that corrects the
//! hand-written evaluation, NNUE-style. Its inputs are one-hot, seen from the side to move: each
//! pit's stones (0–15+, and for a mandarin pit whether the piece is there), each store's small
//! stones (0–9+: a refill costs 5 under `forfeit`), each side's debts, the moves left before the
//! limit; 276 inputs of which a position turns on 17, so the hidden layer (32 neurons, ReLU) is
//! the sum of 17 rows, and one output weighs it: the points the hand-written evaluation gets
//! wrong. Trained by `oaq train` on self-play between depth-10 searches, each position labelled
//! half by the search's value and half by the game's final margin, mirrored boards included,
//! one game in ten held out; Adam on the squared error, one thread, so a seed gives the same
//! network bit for bit. Measured (`basic`, 2 cores):
//!
//! | network | self-play + training | held-out error of the hand-written evaluation → with the network | Master with it against without (both with the endgame table), 0.2 s a move, 200 games |
//! |---|---|---|---|
//! | 1: 4,000 games, `--seed 1 --epochs 30` (`assets/ai/network-basic.nn`) | 266 s + 1 s, 98,432 positions | 180.8 → 97.3 points² | +1.07 ± 1.29 (positive on 47% of openings, negative on 34%) |
//! | 2: 6,000 games searched with network 1 (`--from`), `--seed 2 --epochs 24` | 576 s + 1 s, 145,044 positions | 174.9 → 94.7 points² | −0.42 ± 1.32 |
//!
//! So the network halves the evaluation's error on positions it never saw, and Master plays no
//! better for it: at Master's depth (about 20 moves in 0.2 s) the evaluation's error at the
//! leaves decides little, as the earlier fitted evaluations (+2 moves of depth for no gain)
//! already suggested. No level uses it, nor do the hint and the review; `oaq match --a-network`
//! and `oaq bench --network` measure the next one. Its cost, `oaq bench --rules basic --depth 14`
//! (three runs each): 8.5–11.0 M nodes/s without, 7.4–8.0 with (SSE2 on x86-64; the same sums in
//! the same order as the plain code, so every machine gets the same number), 3.9–4.1 with plain
//! code, which is what the browser's WebAssembly without SIMD would get: a level that uses it on
//! the web needs the SIMD path first. A second hidden layer of 16 was tried: 91.5 points² held
//! out, but 2.9–3.2 M nodes/s even with the vector path for the first layer (dropped).
//!
//! **Review** (`crates/oaq-ai/src/review.rs`, `oaq review`): every move of a game judged by a search of the
//! position before it to a fixed depth (10 by default: the same review on every machine) that
//! values every legal move exactly at that depth. The value of the move played is the expected
//! final margin after it; the points it gave away against the best move grade it: best, good
//! (under 2 points), inaccuracy (2–5), mistake (5–10), blunder (10 or more, or a line the search
//! saw won let go). `Reviewer::step(nodes)` runs it in slices with its progress, as the game's
//! review screen will. `oaq review --rules basic --moves "..."` prints one JSON line per move:
//! `ply`, `seat`, `player` (who they were at the start: after a table flip each player sits in the
//! other's seat), `move`, `value`, `best`, `best_value`, `loss`, `quality`, `depth`, `solved`, and
//! on the 2-player board `margin`, the first player's expected margin (the graph's line). A move
//! that cannot be played is refused with its place, the reason and the legal moves (exit status
//! 2). A whole game of 60 moves at depth 10 takes a few seconds on one core.
//!
//! **Puzzles** (`crates/oaq-ai/src/puzzle.rs`, `oaq puzzles`): `oaq puzzles generate --seed 1 --count 180`
//! plays engine games at mixed levels (3–7) in six presets (standard, basic, young mandarin, Quan
//! Già, Lật bàn, ten seeds, shared 3:2:2:2:2:1) and every few moves judges the position: every
//! legal move searched to depth 12 (`Limits::all_root_moves`); it is a puzzle when the best
//! move's final margin beats every other move's by at least 4 points. The line goes on (up to
//! three moves of the solver's) while the position after the engine's reply is again one. The
//! difficulty is the depth from which a search settles on every answer of the line: easy up to
//! 2, medium 3–5, hard 6 or more; the set has a third of each per preset. Each puzzle keeps the
//! game's moves from the start (so it is a real, replayable position), the answer, the engine's
//! reply and every move's margin (what a wrong move gave away). The shipped set: 180 puzzles,
//! seed 1, 23 s on two cores, 87 KB; 89 of one move, 41 of two, 50 of three. `oaq puzzles check`
//! searches every puzzle again (11 s); a test does the same with the library. The swap, and the
//! 3-player board (whose values are not one margin), are left out.
//!
//! **The table flip** is valued for the player who swaps: the search's values are those of the
//! player to move at the root, who after a `swap` sits at the other seat, so the point of view
//! stays and only the seat changes. (Until this was found, by reviewing a swap, the search negated
//! the swap's value and so valued flipping as declining: it flipped only by accident of move order.
//! The Lật bàn book was rebuilt after the fix.)
//!
//! # Levels and their strength
//!
//! Levels 1–10 are `assets/ai/levels.ron`: a depth and time limit, plus a mistake model, a random
//! misjudgement of each move of about `noise` points (seeded: the same seed gives the same move) and
//! a `sight` in relay pick-ups beyond which a capture goes unseen. The game names Easy (2: one move
//! ahead, 4 points of noise, no relays followed), Medium (4: two moves ahead, 2 points of noise,
//! one relay), Hard (7: ten moves ahead, no mistakes) and Master (10: as deep as 2 s allow, with
//! the book).
//!
//! **The first mover wins.** Between engines that see well, the side that moves first from a
//! two-move opening wins almost every game, so levels are compared by **paired margin**: `oaq
//! match` plays each opening twice, seats swapped, and reports the mean of A's score differences
//! over each opening's two games with its 95% interval, and the share of openings where it is
//! positive, zero and negative, beside wins, draws and losses. `--time-scale 0.1` shortens the
//! time of levels that search as deep as their time allows.
//!
//! **Ratings** (`assets/ai/ratings.ron`, shown in the menu beside each level): `oaq rate --rules
//! basic --games 60 --span 3 --time-scale 0.1 --seed 1 --out assets/ai/ratings.ron` plays a paired
//! match of 60 games between every two levels at most three apart (so each named level meets the
//! next one directly; levels 8–10 at a tenth of their time) and fits a Bradley–Terry model on the
//! Elo scale with level 1 at 1000. Each opening's pair of games is one result (`--by pairs`, the
//! default): won by the level with the better paired margin, drawn when the margins are level
//! (one drawn result is added to each pair of levels so that a clean sweep stays finite). Single
//! games (`--by games`) would mostly say who moved first: between levels that see ten moves or
//! more the first mover wins nearly every game, so game points barely separate them (rated by
//! games, Hard to Master was +40). About 11 minutes on the two cores.
//!
//! | level | 1 | 2 Easy | 3 | 4 Medium | 5 | 6 | 7 Hard | 8 | 9 | 10 Master |
//! |---|---|---|---|---|---|---|---|---|---|---|
//! | rating | 1000 | 1120 | 1590 | 1700 | 1870 | 1970 | 1980 | 2090 | 2160 | 2190 |
//!
//! The steps between the named levels: Easy → Medium +580, Medium → Hard +280, Hard → Master +210.
//! The first fit by pairs rated level 6 (then depth 6, 0.75 points of noise) above Hard (1970
//! against 1900: 7 vs 6 −1.3 ± 4.6): levels 5 and 6 now look 3 and 4 moves ahead with 2 and 1.25
//! points of noise, between Medium and Hard. The named pairs (30 openings each, paired margin with
//! its 95% interval, and the share of pairs won): Medium vs Easy +30.6 ± 3.8 (100%); Hard vs
//! Medium +16.4 ± 6.2 (83%); Master vs Hard at a tenth of its time +8.35 ± 4.00 (80%). Between
//! neighbours: 3 vs 2 +29.5 ± 5.0, 5 vs 4 +15.2 ± 5.6, 6 vs 5 +11.7 ± 6.0, 7 vs 6 +3.9 ± 5.7,
//! 8 vs 7 +6.0 ± 3.6, 9 vs 8 +2.9 ± 2.1, 10 vs 9 +1.0 ± 2.6 (57% of its pairs even). Easy
//! (level 2) sees one move and misjudges each by about four points: a careful beginner who looks
//! for the capture it offers beats it.
//!
//! Measured here (one core per game; AMD EPYC, 2 cores, unless said; `--seed 3`):
//!
//! | what | result |
//! |---|---|
//! | `oaq bench --seconds 1` (opening and five middle games, `standard`) | 10.2–11.1 M nodes/s with reductions, depth 16–17 (16 from the opening); `--no-reductions` 10.8–12.4 M nodes/s, depth 14–15 (on the earlier 2.1 GHz Xeon: 6.6–8.4 M, depth 14) |
//! | `oaq bench --depth 15`, opening / all six | 0.38–0.47 s / 1.40–1.68 s with reductions (4.4 M nodes from the opening); `--no-reductions` 0.98–1.12 s / 5.1–5.8 s (10.3 M) |
//! | Medium vs Easy, paired margin, 200 games | +28.61 ± 2.60, positive on 98% of openings, negative 2% (89.0%: 177 wins, 2 draws, 21 losses) |
//! | Hard vs Medium, 200 games | +17.27 ± 2.87, positive 89%, negative 11% (86.5%) |
//! | Master at 0.2 s (`--time-scale 0.1`) vs Hard, 200 games | +7.56 ± 2.69, positive 71%, zero 4%, negative 25% (53.2%; 93 of 100 openings split 1–1) |
//! | **Master at 2 s vs Hard**, 40 games | **+15.05 ± 5.64, positive on 85% of openings, negative 15%** (52.5%; 19 of 20 openings split 1–1) |
//! | **Master at 2 s vs Medium**, 40 games | **+19.05 ± 5.22, positive on all 20 openings** (85.0%: 34 wins, 6 losses; 14 openings won both ways) |
//! | level 10 with reductions vs without, both at 0.2 s, 200 games | +0.86 ± 1.64 (positive 40%, zero 22%, negative 38%) |
//! | time per move (mean / longest) | Hard 4.4 / 73 ms; Master 1.91 / 2.02 s, at 0.2 s 193 / 215 ms |
//!
//! Against the targets: Master at 2 s against Hard is positive on 85% of openings (asked: 80%)
//! with its interval above zero, but its mean margin is +15.05 (asked: +20; missed by 5 points,
//! and the interval, 9.4 to 20.7, still reaches it). Depth 15 from the opening takes 0.38–0.47 s
//! (asked: 1 s). Against Medium Master is positive on every opening (asked: 95%). The named
//! levels are 210 to 580 rating points apart (asked: 150). Every opening
//! still goes to the first mover (the split 1–1 column): what Master adds is points, not games.
//! Master's 2 s matches are the long ones (a 40-game match is 16 minutes on both cores), hence 40
//! games; the 0.2 s rows are 200.

pub mod book;
pub mod eval;
mod levels;
pub mod network;
pub mod puzzle;
pub mod remote;
pub mod review;
pub mod search;
pub mod tablebase;
mod thinker;
pub mod tt;
pub mod zobrist;

pub use eval::Weights;
pub use levels::{Level, ParseLevelError, Ratings};
pub use search::{Limits, Report, Search};
pub use thinker::{Decision, MAX_THREADS, Thinker};
pub use tt::Table;
