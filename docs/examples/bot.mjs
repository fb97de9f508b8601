// A complete bot for the Triple Topper card room: Node.js 18 or later, standard library only.
// It connects as a bot account, accepts every invitation and rematch, plays random legal moves.
//   node bot.mjs http://127.0.0.1:8032 BOT_TOKEN [--once]
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import https from "node:https";

const [server, token, once] = process.argv.slice(2);
const wsBase = server.replace(/^http/, "ws").replace(/\/$/, "");

// --- a minimal websocket client (RFC 6455): JSON text frames, masked as a client's must be
function websocket(url, onMessage, onClose) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const key = randomBytes(16).toString("base64");
    const request = (u.protocol === "wss:" ? https : http).request({
      host: u.hostname, port: u.port, path: u.pathname,
      headers: { Connection: "Upgrade", Upgrade: "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": key },
    });
    request.on("error", reject);
    request.on("response", (res) => reject(new Error(`no websocket here: HTTP ${res.statusCode}`)));
    request.on("upgrade", (res, socket) => {
      const accept = createHash("sha1").update(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest("base64");
      if (res.headers["sec-websocket-accept"] !== accept) return reject(new Error("bad handshake"));
      const send = (payload, opcode = 1) => {
        const mask = randomBytes(4);
        const size = payload.length;
        const head = size < 126 ? Buffer.from([0x80 | opcode, 0x80 | size])
          : size < 65536 ? Buffer.from([0x80 | opcode, 0x80 | 126, size >> 8, size & 255])
          : Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | 127]), (() => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(size)); return b; })()]);
        socket.write(Buffer.concat([head, mask, payload.map((byte, i) => byte ^ mask[i % 4])]));
      };
      let buffer = Buffer.alloc(0);
      let parts = [];
      socket.on("data", (chunk) => {
        buffer = Buffer.concat([buffer, chunk]);
        while (buffer.length >= 2) {
          const fin = buffer[0] & 0x80, opcode = buffer[0] & 0x0f;
          let size = buffer[1] & 0x7f, start = 2;
          if (size === 126) { if (buffer.length < 4) return; size = buffer.readUInt16BE(2); start = 4; }
          if (size === 127) { if (buffer.length < 10) return; size = Number(buffer.readBigUInt64BE(2)); start = 10; }
          if (buffer.length < start + size) return;
          const payload = buffer.subarray(start, start + size);
          buffer = buffer.subarray(start + size);
          if (opcode === 8) { socket.end(); return; }  // the server closes
          if (opcode === 9) { send(payload, 10); continue; }  // ping: pong
          if (opcode > 2) continue;
          parts.push(payload);
          if (fin) { onMessage(JSON.parse(Buffer.concat(parts).toString("utf8"))); parts = []; }
        }
      });
      socket.on("close", onClose);
      resolve({ send: (message) => send(Buffer.from(JSON.stringify(message), "utf8")), close: () => socket.end() });
    });
    request.end();
  });
}

// Every action the "legal" entries stand for: an entry is one action, or a pattern (pick
// `pick` items of `from` into `field` of `action`).
function expand(legal) {
  const out = [];
  for (const entry of legal) {
    if (!entry.pattern) { out.push(entry.action); continue; }
    const { action, field, from, pick } = entry.pattern;
    const choose = (start, chosen) => {
      if (chosen.length === pick) { out.push({ ...action, [field]: chosen }); return; }
      for (let i = start; i < from.length; i++) choose(i + 1, [...chosen, from[i]]);
    };
    choose(0, []);
  }
  return out;
}

// Play one invited seat to the end of its game: on every view with legal moves, send one
// (for the version it was shown: a move the game has moved past is refused as `stale`).
function play(invite) {
  return new Promise((resolve) => {
    let sent = -1;
    let table = null;
    const view = (m) => {
      if (m.status !== "playing") {
        if (m.status === "finished" || m.status === "abandoned") { console.log(`table ${invite.table}: ${m.status}`); table.close(); }
        return;
      }
      const actions = expand(m.legal || []);
      if (!actions.length || sent === m.version) return;
      sent = m.version;
      const action = actions[Math.floor(Math.random() * actions.length)];
      setTimeout(() => table.send({ type: "action", action, version: m.version }), 50);  // within the rate limit
    };
    websocket(`${wsBase}/ws/tables/${invite.table}`, (m) => {
      if (m.type === "state" || m.type === "update") view(m);
      else if (m.type === "error") { console.log(`refused: ${m.code}: ${m.message}`); sent = -1; table.send({ type: "sync" }); }
    }, resolve).then((socket) => {
      table = socket;
      table.send({ type: "hello", token: invite.token });
      console.log(`playing seat ${invite.seat + 1} of ${invite.game} at table ${invite.table}`);
    }, resolve);
  });
}

// The bot account's own connection: hello with the API token, then invitations (and rematch
// offers: accepted, so the rematch's seat comes as an invitation).  A dropped connection is
// made again, waiting longer each time (at most 30 s).
async function main() {
  let delay = 500;
  for (;;) {
    const stop = await new Promise((resolve) => {
      let bot = null;
      websocket(`${wsBase}/ws/bot`, (m) => {
        if (m.type === "welcome") { delay = 500; console.log(`connected as ${m.bot}`); }
        if (m.type === "error") { console.log(`refused: ${m.code}: ${m.message}`); if (["bad_token", "revoked", "expired_token"].includes(m.code)) resolve(m.code); }
        if (m.type === "rematch") { console.log(`accept the rematch ${m.table}`); bot.send({ type: "accept", table: m.table }); }
        if (m.type === "invite") play(m).then(() => { if (once === "--once") resolve("played"); });
      }, () => resolve(null)).then((socket) => { bot = socket; bot.send({ type: "hello", token }); }, () => resolve(null));
    });
    if (stop) { console.log(`stopped: ${stop}`); process.exit(0); }
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(30000, delay * 2);
  }
}

main();
