// Sets up people on a running oaq-server for screenshots of the friends, profile and account
// pages: "An" (whose token is written to OAQ_HOME's online-token.txt, so that the game plays
// as An), three friends (two connected), a friend request, a challenge to An, a challenge from
// An, eight rated games between An and Bình for the rating graph, a second device, games by
// days, and a game in progress between An and Bình (its code in OAQ_HOME's room.txt) where Bình says "well
// played" every few seconds.
// Run: node --experimental-websocket tests/web/people-scene.mjs ws://HOST:PORT/ws OAQ_HOME
// It keeps the friends connected (online) until it is stopped.

import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const [url, home] = process.argv.slice(2);
if (!url || !home) {
  console.error("usage: people-scene.mjs ws://HOST:PORT/ws OAQ_HOME");
  process.exit(2);
}

/// A player's connection: `ask` sends a message and waits for the first answer `want` accepts.
async function player(name, token) {
  const ws = new WebSocket(url);
  const waiting = [];
  const seen = [];
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    seen.push(msg);
    for (const w of [...waiting]) {
      if (w.want(msg)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(msg);
      }
    }
  };
  await new Promise((ok, fail) => {
    ws.onopen = ok;
    ws.onerror = fail;
  });
  const p = {
    ws,
    send: (msg) => ws.send(JSON.stringify(msg)),
    wait: (want) =>
      new Promise((resolve, reject) => {
        const old = seen.find(want);
        if (old) {
          seen.splice(seen.indexOf(old), 1);
          return resolve(old);
        }
        waiting.push({ want, resolve });
        setTimeout(() => reject(new Error(`${name}: no answer`)), 15000);
      }),
    ask: async (msg, want) => {
      seen.length = 0;
      p.send(msg);
      return p.wait((m) => m.type === "error" || want(m));
    },
  };
  const hello = { type: "hello", protocol: 1, name, device: `${name}'s phone` };
  if (token) hello.token = token;
  const welcome = await p.ask(hello, (m) => m.type === "welcome");
  p.id = welcome.player.id;
  p.token = welcome.token;
  return p;
}

const is = (type) => (m) => m.type === type;

async function code(p) {
  const answer = await p.ask({ type: "profile" }, is("profile"));
  return answer.profile.friend_code;
}

async function befriend(a, b) {
  await a.ask({ type: "add_friend", code: await code(b) }, is("relations"));
  await b.ask({ type: "answer_friend", player: a.id, accept: true }, is("relations"));
}

/// A rated game between `a` and `b`, ended at once: `loser` resigns, or both agree a draw.
async function game(a, b, loser) {
  const sent = await a.ask(
    { type: "challenge", player: b.id, rules: "standard", clock: { base_ms: 300000, increment_ms: 3000 } },
    is("challenges"),
  );
  const challenge = sent.outgoing.find((c) => c.to.id === b.id);
  const accepted = await b.ask(
    { type: "answer_challenge", id: challenge.id, accept: true },
    is("challenge_accepted"),
  );
  for (const p of [a, b]) {
    await p.ask({ type: "join", code: accepted.room }, is("seat"));
  }
  if (loser) {
    await loser.ask({ type: "resign" }, (m) => m.type === "ended");
  } else {
    a.send({ type: "offer_draw" });
    await b.ask({ type: "accept_draw" }, (m) => m.type === "ended");
  }
  for (const p of [a, b]) p.send({ type: "leave" });
}

const an = await player("An");
const binh = await player("Bình");
const cuc = await player("Cúc");
const dung = await player("Dũng");
const em = await player("Em");
await befriend(binh, an);
await befriend(an, cuc);
await befriend(dung, an);
for (const loser of [binh, binh, an, binh, null, binh, an, binh]) {
  await game(an, binh, loser);
}
await em.ask({ type: "add_friend", code: await code(an) }, is("relations"));
await cuc.ask(
  { type: "challenge", player: an.id, rules: "basic", clock: { base_ms: 600000, increment_ms: 5000 } },
  is("challenges"),
);
await an.ask({ type: "challenge", player: dung.id, rules: "standard", clock: "untimed" }, is("challenges"));
// A second device of An's, linked by a code.
const link = await an.ask({ type: "link_code" }, is("link_code"));
const tablet = await player("An");
await tablet.ask({ type: "link", code: link.code }, is("welcome"));
// A game between An and Bình in progress (An's tablet accepted), where Bình chats.
const room = await (async () => {
  const sent = await binh.ask(
    { type: "challenge", player: an.id, rules: "standard", clock: { base_ms: 600000, increment_ms: 5000 } },
    is("challenges"),
  );
  const id = sent.outgoing.find((c) => c.to.id === an.id).id;
  const accepted = await tablet.ask({ type: "answer_challenge", id, accept: true }, is("challenge_accepted"));
  await binh.ask({ type: "join", code: accepted.room }, is("seat"));
  return accepted.room;
})();
setInterval(() => binh.send({ type: "chat", phrase: "well_played" }), 2500);
// Games by days for "My games": Dũng's and Bình's challenges by days, accepted by An, and a
// room by days of An's waiting for an opponent.
for (const [from, days] of [[dung, 3], [binh, 7]]) {
  const sent = await from.ask(
    { type: "challenge", player: an.id, rules: "standard", clock: { days } },
    is("challenges"),
  );
  const id = sent.outgoing.find((c) => c.to.id === an.id).id;
  await an.ask({ type: "answer_challenge", id, accept: true }, is("challenge_accepted"));
}
await an.ask({ type: "create", rules: "basic", clock: { days: 5 } }, is("created"));
dung.ws.close();
an.ws.close();
tablet.ws.close();
mkdirSync(home, { recursive: true });
writeFileSync(join(home, "online-token.txt"), an.token);
writeFileSync(join(home, "settings.ron"), "(seen_intro: true, child: Some(false), name: \"An\")");
writeFileSync(join(home, "room.txt"), room);
console.log(`scene ready: An is ${an.id}`);
// Bình and Cúc stay connected (online) until stopped.
setInterval(() => {}, 1 << 30);
