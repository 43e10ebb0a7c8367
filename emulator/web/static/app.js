// A Discord client for the emulator: shows one user's view and sends what Discord's client would send.
// Plain script, no build step. Everything it renders comes from the messages' own JSON (content, embeds,
// attachments, components of either generation), so whatever a bot posts displays as Discord shows it.
"use strict";

const params = new URLSearchParams(location.search);
const ME = params.get("user") || "";
const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
};

const S = {
  state: null, channel: params.get("channel") || sessionStorage.getItem("channel:" + ME) || null,
  messages: new Map(), order: [], commands: [], commandsFor: null, busy: 0, dirty: false, loading: false,
  failed: new Map(), dismissed: new Set(), seen: new Set(JSON.parse(sessionStorage.getItem("seen:" + ME) || "[]")),
  view: params.get("view") || "guild",
};

// ---------------------------------------------------------------------------------------------- server calls
async function api(path, body) {
  const url = path + (path.includes("?") ? "&" : "?") + "user=" + encodeURIComponent(ME);
  const init = body === undefined ? {} : {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body)};
  const resp = await fetch(url, init);
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) throw new Error(data.message || resp.statusText);
  return data;
}

function toast(text) {
  const t = $("#toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 5000);
}

async function interact(body, onAnswer) {
  S.busy++;
  document.body.dataset.busy = String(S.busy);
  try {
    const answer = await api("/client/interactions", body);
    if (answer.modal) openModal(answer.modal, answer.interaction_id);
    if (onAnswer) onAnswer(answer);
    return answer;
  } catch (err) {
    toast(err.message);
    return null;
  } finally {
    S.busy--;
    document.body.dataset.busy = String(S.busy);
    refresh();
  }
}

// ---------------------------------------------------------------------------------------------- names, time
const COLORS = ["#5865f2", "#3ba55c", "#faa61a", "#ed4245", "#eb459e", "#9b59b6", "#1abc9c", "#e67e22"];
function avatar(user, size) {
  const name = (user && (user.global_name || user.display_name || user.username)) || "?";
  const a = el("div", "avatar" + (size ? " " + size : ""), name.slice(0, 1).toUpperCase());
  let h = 0;
  for (const ch of String(user && user.id || name)) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  a.style.background = user && user.bot ? "#5865f2" : COLORS[h % COLORS.length];
  return a;
}
const nameOf = (id) => (S.state && S.state.names.users[id]) || "unknown-user";
const channelName = (id) => (S.state && S.state.names.channels[id]) || "unknown";
function clock(d) { return d.toLocaleTimeString([], {hour: "numeric", minute: "2-digit"}); }
function stamp(iso) {
  const d = new Date(iso), now = new Date();
  const y = new Date(now); y.setDate(now.getDate() - 1);
  if (d.toDateString() === now.toDateString()) return "Today at " + clock(d);
  if (d.toDateString() === y.toDateString()) return "Yesterday at " + clock(d);
  return d.toLocaleDateString() + " " + clock(d);
}
const RTF = new Intl.RelativeTimeFormat("en", {numeric: "auto"});
function relative(seconds) {
  const diff = seconds - Date.now() / 1000, abs = Math.abs(diff);
  const units = [["year", 31536000], ["month", 2592000], ["day", 86400], ["hour", 3600], ["minute", 60]];
  for (const [unit, size] of units) if (abs >= size) return RTF.format(Math.round(diff / size), unit);
  return RTF.format(Math.round(diff), "second");
}
function discordTime(seconds, style) {
  const d = new Date(seconds * 1000);
  switch (style) {
    case "t": return clock(d);
    case "T": return d.toLocaleTimeString();
    case "d": return d.toLocaleDateString();
    case "D": return d.toLocaleDateString([], {dateStyle: "long"});
    case "F": return d.toLocaleString([], {dateStyle: "full", timeStyle: "short"});
    case "R": return relative(seconds);
    default: return d.toLocaleString([], {dateStyle: "long", timeStyle: "short"});
  }
}
setInterval(() => {
  for (const t of document.querySelectorAll(".ts[data-r]")) t.textContent = relative(Number(t.dataset.r));
}, 15000);

// ---------------------------------------------------------------------------------------------- markdown
// A parser that builds DOM nodes: text only ever becomes text nodes (textContent), and the renderer alone
// chooses elements and attributes (a link's href is a URL that parsed as http or https). Nothing is parsed as
// HTML, so no message can make an element or attribute of its own, nor a link inside a link.
function safeHref(raw) {
  try {
    const u = new URL(raw);
    return u.protocol === "http:" || u.protocol === "https:" ? raw : null;
  } catch (_) {
    return null;
  }
}
// Discord's own links (discord.com/channels/<guild or @me>/<channel>[/<message>]) open in the client itself, as
// Discord's client does: a DM, a game's thread, a jump to a message. Every other link opens a new tab.
const DISCORD_LINK = /^https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/channels\/(@me|\d+)\/(\d+)(?:\/(\d+))?\/?$/;
function inPage(href) {
  const m = DISCORD_LINK.exec(href);
  return m ? {channel: m[2], message: m[3] || null} : null;
}
function link(href, children) {
  const a = el("a");
  a.setAttribute("href", href);
  const jump = inPage(href);
  if (jump) {
    a.dataset.jumpChannel = jump.channel;
    if (jump.message) a.dataset.jumpMessage = jump.message;
  } else {
    a.target = "_blank";
    a.rel = "noreferrer";
  }
  a.append(...children);
  return a;
}
async function jumpTo(channel, message) {
  if (!findChannel(channel)) { toast("That channel is not one you can see here."); return; }
  if (channel !== S.channel) await openChannel(channel);
  if (!message) return;
  const node = document.querySelector(`.msg[data-id="${CSS.escape(message)}"]`);
  if (!node) { toast("That message is gone."); return; }
  pinned = false;
  node.scrollIntoView({block: "center"});
  node.classList.add("flash");
  setTimeout(() => node.classList.remove("flash"), 1500);
}
function mention(text, key, id) {
  const s = el("span", "mention", text);
  if (key) s.dataset[key] = id;
  return s;
}
function timestamp(raw, n, style) {
  const seconds = Number(n);
  // a time no date can show stays the text it was, as on Discord
  if (!Number.isFinite(new Date(seconds * 1000).getTime())) return document.createTextNode(raw);
  const s = el("span", "ts", discordTime(seconds, style));
  s.title = new Date(seconds * 1000).toLocaleString([], {dateStyle: "full", timeStyle: "short"});
  if (style === "R") s.dataset.r = n;
  return s;
}
// Discord's tokens in angle brackets: timestamps, mentions of users, roles, channels, commands; custom emoji.
const ANGLE = [
  [/^<t:(-?\d+)(?::([tTdDfFR]))?>/, (m) => timestamp(m[0], m[1], m[2])],
  [/^<@!?(\d+)>/, (m) => mention("@" + nameOf(m[1]), "user", m[1])],
  [/^<@&(\d+)>/, (m) => mention("@" + ((S.state && S.state.names.roles[m[1]]) || "unknown-role"))],
  [/^<#(\d+)>/, (m) => mention("# " + channelName(m[1]), "channel", m[1])],
  [/^<\/([\w -]+):(\d+)>/, (m) => mention("/" + m[1])],
  [/^<a?:(\w+):(\d+)>/, (m) => document.createTextNode(`:${m[1]}:`)],
];
// Spans between a pair of delimiters, tried in this order at each position; the inside is parsed again.
const SPANS = [
  ["***", () => { const s = el("strong"); const e = el("em"); s.append(e); return [s, e]; }],
  ["**", () => { const s = el("strong"); return [s, s]; }],
  ["__", () => { const u = el("u"); return [u, u]; }],
  ["~~", () => { const s = el("s"); return [s, s]; }],
  ["||", () => { const s = el("span", "spoiler"); return [s, s]; }],
];
const WORD = /\w/;
// Single * or _ emphasis, as Discord reads it: not inside a word, not opening on a space.
function singleEmphasis(text, i, mark) {
  const before = i > 0 ? text[i - 1] : "";
  if (before && (WORD.test(before) || before === mark)) return -1;
  if (i + 1 >= text.length || /\s/.test(text[i + 1])) return -1;
  const end = text.indexOf(mark, i + 1);
  if (end < i + 2 || text.slice(i + 1, end).includes("\n")) return -1;
  if (end + 1 < text.length && WORD.test(text[end + 1])) return -1;
  return end;
}
// One line's inline markdown as nodes. ``links`` is false inside a link's text: no link inside a link.
function inline(text, links = true) {
  const out = [];
  let plain = "";
  const flush = () => { if (plain) { out.push(document.createTextNode(plain)); plain = ""; } };
  const put = (node) => { flush(); out.push(node); };
  let i = 0;
  scan: while (i < text.length) {
    const rest = text.slice(i), ch = text[i];
    let m;
    if (ch === "\\" && i + 1 < text.length && /[^\w\s]/.test(text[i + 1])) { plain += text[i + 1]; i += 2; continue; }
    if (ch === "`" && (m = rest.match(/^`([^`\n]+)`/))) { put(el("code", "", m[1])); i += m[0].length; continue; }
    if (ch === "<") {
      for (const [re, make] of ANGLE) {
        if ((m = rest.match(re))) { put(make(m)); i += m[0].length; continue scan; }
      }
    }
    if (links && ch === "[" && (m = rest.match(/^\[([^\]\n]+)\]\((https?:\/\/[^)\s]+)\)/)) && safeHref(m[2])) {
      put(link(m[2], inline(m[1], false))); i += m[0].length; continue;
    }
    if (links && ch === "h" && (i === 0 || /[\s(]/.test(text[i - 1])) && (m = rest.match(/^https?:\/\/[^\s<)]+/))
        && safeHref(m[0])) {
      put(link(m[0], [document.createTextNode(m[0])])); i += m[0].length; continue;
    }
    for (const [mark, make] of SPANS) {
      if (!rest.startsWith(mark)) continue;
      const end = text.indexOf(mark, i + mark.length + 1);
      if (end < 0) continue;
      const [outer, inner] = make();
      inner.append(...inline(text.slice(i + mark.length, end), links));
      put(outer); i = end + mark.length; continue scan;
    }
    if (ch === "*" || ch === "_") {
      const end = singleEmphasis(text, i, ch);
      if (end > 0) {
        const e = el("em");
        e.append(...inline(text.slice(i + 1, end), links));
        put(e); i = end + 1; continue;
      }
    }
    plain += ch;
    i += 1;
  }
  flush();
  return out;
}
// Blocks: code fences, then line by line headers, subtext, quotes, lists and plain lines.
function markdown(text) {
  const out = [];
  const parts = String(text || "").split(/```/);
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      out.push(el("pre", "", part.replace(/^[\w+-]*\n/, "").replace(/\n$/, "")));
      return;
    }
    const lines = part.split("\n");
    let list = null;
    const block = (tag, cls, body) => { const b = el(tag, cls); b.append(...inline(body)); return b; };
    const item = (kind, body) => {
      if (!list || list.tagName.toLowerCase() !== kind) { list = el(kind); out.push(list); }
      list.append(block("li", "", body));
    };
    lines.forEach((line, j) => {
      let m;
      if ((m = line.match(/^(#{1,3}) (.+)$/))) { list = null; out.push(block("h" + m[1].length, "", m[2])); return; }
      if ((m = line.match(/^-# (.+)$/))) { list = null; out.push(block("div", "subtext", m[1])); return; }
      if ((m = line.match(/^>>> ?(.*)$/))) { list = null; out.push(block("blockquote", "", m[1])); return; }
      if ((m = line.match(/^> ?(.*)$/))) { list = null; out.push(block("blockquote", "", m[1])); return; }
      if ((m = line.match(/^\s*[-*] (.+)$/))) { item("ul", m[1]); return; }
      if ((m = line.match(/^\s*\d+\. (.+)$/))) { item("ol", m[1]); return; }
      list = null;
      out.push(...inline(line));
      if (j < lines.length - 1) out.push(document.createTextNode("\n"));
    });
  });
  return out;
}
function md(cls, text) {
  const d = el("div", "md " + cls);
  d.append(...markdown(text));
  return d;
}
document.addEventListener("click", (ev) => {
  const sp = ev.target.closest(".spoiler");
  if (sp) sp.classList.add("shown");
  const ch = ev.target.closest(".mention[data-channel]");
  if (ch) openChannel(ch.dataset.channel);
  const jump = ev.target.closest("a[data-jump-channel]");
  if (jump) { ev.preventDefault(); jumpTo(jump.dataset.jumpChannel, jump.dataset.jumpMessage); }
});

// ---------------------------------------------------------------------------------------------- media
function attachmentOf(msg, url) {
  if (!url) return null;
  const name = url.startsWith("attachment://") ? url.slice("attachment://".length) : null;
  return (msg.attachments || []).find((a) => (name ? a.filename === name : a.url === url)) || null;
}
// The size of a picture: the media item's own (Discord resolves it), else its attachment's.
function sizeOf(msg, media) {
  if (media && media.width && media.height) return media;
  return attachmentOf(msg, media && media.url);
}
function attachmentUrl(msg, url) {
  if (url && url.startsWith("attachment://")) {
    const name = url.slice("attachment://".length);
    const found = (msg.attachments || []).find((a) => a.filename === name);
    return found ? found.url : null;
  }
  return url;
}
// A picture's box is reserved from the size Discord sends with it (width, height), before its bytes arrive, so
// nothing below it moves when it loads and a click meant for a button never lands on a picture.
function sized(img, size) {
  if (size && size.width > 0 && size.height > 0) {
    img.width = size.width;
    img.height = size.height;
    img.style.aspectRatio = `${size.width} / ${size.height}`;
  }
  return img;
}
// When the page moved last (new messages, a picture loaded): a click on a picture that only just slid under the
// pointer was meant for something else, and opens nothing.
let lastMoved = 0;
function moved() { lastMoved = performance.now(); }
function openFullSize(src, alt) {
  const lb = $("#lightbox");
  lb.innerHTML = "";
  const big = el("img");
  big.src = src;
  big.alt = alt || "";
  lb.append(big);
  lb.hidden = false;
}
function closeFullSize() { const lb = $("#lightbox"); lb.hidden = true; lb.innerHTML = ""; }
function picture(src, alt, spoiler, size) {
  const f = el("figure", "image");
  const img = sized(el("img"), size);
  img.src = src;
  img.alt = alt || "";
  img.loading = "lazy";
  img.addEventListener("click", () => { if (performance.now() - lastMoved > 400) openFullSize(src, alt); });
  img.addEventListener("load", stickToBottom);
  f.append(img);
  if (alt) {
    const b = el("button", "alt-badge", "ALT");
    b.type = "button";
    b.title = alt;
    b.addEventListener("click", () => f.classList.toggle("show-alt"));
    f.append(b, el("div", "alt-text", alt));
  }
  if (spoiler) f.classList.add("spoiler-media");
  return f;
}
function fileCard(name, url, size) {
  const d = el("div", "file");
  d.append(el("span", "icon", "📄"));
  const info = el("div");
  const a = el("a", "", name);
  a.href = url;
  a.download = name;
  info.append(a);
  if (size !== undefined) info.append(el("small", "", size < 1024 ? size + " bytes" : (size / 1024).toFixed(1) + " KB"));
  d.append(info);
  return d;
}
const isImage = (a) => /^image\//.test(a.content_type || "") || /\.(png|gif|jpe?g|webp)$/i.test(a.filename);
// The full-size view covers the page, so it closes on any click on it (the picture or around it) and on
// Escape, as Discord's does; opening another channel closes it too.
$("#lightbox").addEventListener("click", closeFullSize);

// ---------------------------------------------------------------------------------------------- embeds
function embed(msg, e) {
  const d = el("div", "embed");
  if (e.color !== undefined && e.color !== null) d.style.borderLeftColor = "#" + Number(e.color).toString(16).padStart(6, "0");
  if (e.thumbnail && e.thumbnail.url) {
    const t = el("div", "e-thumb");
    const img = el("img");
    img.src = attachmentUrl(msg, e.thumbnail.url);
    t.append(img);
    d.append(t);
  }
  if (e.author && e.author.name) d.append(el("div", "e-author", e.author.name));
  if (e.title) {
    const t = el("div", "e-title");
    const href = e.url && safeHref(e.url);
    if (href) t.append(link(href, [document.createTextNode(e.title)])); else t.append(...inline(e.title));
    d.append(t);
  }
  if (e.description) d.append(md("e-desc", e.description));
  if (e.fields && e.fields.length) {
    const fs = el("div", "e-fields");
    for (const f of e.fields) {
      const fd = el("div", "e-field" + (f.inline ? " inline" : ""));
      const b = el("b");
      b.append(...inline(f.name || ""));
      fd.append(b, md("", f.value || ""));
      fs.append(fd);
    }
    d.append(fs);
  }
  if (e.image && e.image.url) {
    const w = el("div", "e-image");
    const img = sized(el("img"), sizeOf(msg, e.image));
    img.src = attachmentUrl(msg, e.image.url);
    img.addEventListener("load", stickToBottom);
    w.append(img);
    d.append(w);
  }
  const foot = [e.footer && e.footer.text, e.timestamp && stamp(e.timestamp)].filter(Boolean).join(" • ");
  if (foot) d.append(el("div", "e-footer", foot));
  return d;
}

// ---------------------------------------------------------------------------------------------- components
function emojiText(emoji) {
  if (!emoji) return "";
  return emoji.id ? `:${emoji.name}:` : emoji.name || "";
}
function button(msg, c) {
  const b = el("button", "btn s" + (c.style || 2));
  b.type = "button";
  const label = [emojiText(c.emoji), c.label || ""].filter(Boolean).join(" ");
  b.textContent = c.style === 5 && !(c.url && inPage(c.url)) ? label + " ↗" : label;
  b.disabled = !!c.disabled;
  if (c.custom_id) b.dataset.customId = c.custom_id;
  b.addEventListener("click", async () => {
    const jump = c.style === 5 && c.url && inPage(c.url);
    if (jump) { jumpTo(jump.channel, jump.message); return; }
    if (c.style === 5 && c.url) { window.open(c.url, "_blank", "noreferrer"); return; }
    if (c.style === 6) { toast("Premium buttons open Discord's shop; there is none here."); return; }
    b.classList.add("loading");
    b.disabled = true;
    await interact({type: 3, message_id: msg.id, custom_id: c.custom_id}, (answer) => noteFailure(msg.id, answer));
    b.classList.remove("loading");
    b.disabled = !!c.disabled;
  });
  return b;
}
function noteFailure(messageId, answer) {
  if (answer && answer.failed) S.failed.set(messageId, answer.failed);
  else S.failed.delete(messageId);
}
function selectOptions(c) {
  const people = (S.state && S.state.people) || [];
  const users = people.map((u) => ({label: u.display_name, value: u.id}));
  const chans = [];
  for (const g of (S.state && S.state.guilds) || []) for (const ch of g.channels) chans.push({label: "# " + ch.name, value: ch.id});
  const roles = Object.entries((S.state && S.state.names.roles) || {}).map(([id, name]) => ({label: "@" + name, value: id}));
  switch (c.type) {
    case 3: return c.options || [];
    case 5: return users;
    case 6: return roles;
    case 7: return users.concat(roles);
    case 8: return chans;
    default: return [];
  }
}
// Discord's dropdowns are its own widgets, not the browser's <select>: a head to click and a list below.
function selectMenu(c, submit) {
  const wrap = el("div", "select" + (c.disabled ? " disabled" : ""));
  if (c.custom_id) wrap.dataset.customId = c.custom_id;
  const options = selectOptions(c);
  const min = c.min_values === undefined ? 1 : c.min_values, max = c.max_values === undefined ? 1 : c.max_values;
  const picked = new Set((c.options || []).filter((o) => o.default).map((o) => o.value));
  for (const dv of c.default_values || []) picked.add(dv.id);
  const head = el("div", "sel-head");
  const label = () => {
    const names = options.filter((o) => picked.has(o.value)).map((o) => [emojiText(o.emoji), o.label].filter(Boolean).join(" "));
    head.textContent = "";
    head.append(el("span", "", names.length ? names.join(", ") : (c.placeholder || "Make a selection")), el("span", "", "⌄"));
    head.classList.toggle("chosen", names.length > 0);
  };
  label();
  wrap.append(head);
  let list = null;
  const close = (send) => {
    if (list) { list.remove(); list = null; }
    if (send && picked.size >= min && picked.size <= max) submit([...picked]);
  };
  head.addEventListener("click", () => {
    if (c.disabled) return;
    if (list) { close(max > 1); return; }
    list = el("div", "sel-list");
    for (const o of options) {
      const row = el("div", "sel-opt" + (picked.has(o.value) ? " picked" : ""));
      row.dataset.value = o.value;
      const txt = el("div");
      txt.append(el("span", "", [emojiText(o.emoji), o.label].filter(Boolean).join(" ")));
      if (o.description) txt.append(el("small", "", o.description));
      row.append(txt);
      row.addEventListener("click", () => {
        if (max <= 1) { picked.clear(); picked.add(o.value); label(); close(true); return; }
        if (picked.has(o.value)) picked.delete(o.value); else if (picked.size < max) picked.add(o.value);
        row.classList.toggle("picked", picked.has(o.value));
        label();
      });
      list.append(row);
    }
    if (max > 1) {
      const ok = el("button", "btn s1 sel-apply", "Done");
      ok.type = "button";
      ok.addEventListener("click", () => close(true));
      list.append(ok);
    }
    wrap.append(list);
  });
  wrap.value = () => [...picked];
  return wrap;
}
function thumbnail(msg, c) {
  return picture(attachmentUrl(msg, c.media && c.media.url), c.description, c.spoiler, sizeOf(msg, c.media));
}
function component(msg, c) {
  switch (c.type) {
    case 1: { // action row
      const r = el("div", "row");
      for (const child of c.components || []) r.append(component(msg, child));
      return r;
    }
    case 2: return button(msg, c);
    case 3: case 5: case 6: case 7: case 8:
      return selectMenu(c, (values) => interact({type: 3, message_id: msg.id, custom_id: c.custom_id, values},
        (answer) => noteFailure(msg.id, answer)));
    case 9: { // section: text on the left, a button or thumbnail on the right
      const s = el("div", "section-c");
      const texts = el("div", "texts");
      for (const child of c.components || []) texts.append(component(msg, child));
      s.append(texts);
      if (c.accessory) { const a = el("div", "accessory"); a.append(component(msg, c.accessory)); s.append(a); }
      return s;
    }
    case 10: return md("text-display", c.content);
    case 11: return thumbnail(msg, c);
    case 12: { // media gallery
      const g = el("div", "gallery" + ((c.items || []).length === 1 ? " one" : ""));
      for (const item of c.items || []) {
        g.append(picture(attachmentUrl(msg, item.media && item.media.url), item.description, item.spoiler,
          sizeOf(msg, item.media)));
      }
      return g;
    }
    case 13: { // file
      const url = attachmentUrl(msg, c.file && c.file.url) || "#";
      const a = (msg.attachments || []).find((x) => x.url === url);
      return fileCard(a ? a.filename : (c.file && c.file.url) || "file", url, a && a.size);
    }
    case 14: return el("hr", "separator" + (c.divider === false ? "" : " line") + (c.spacing === 2 ? " large" : ""));
    case 17: { // container
      const box = el("div", "container");
      if (c.accent_color !== undefined && c.accent_color !== null) {
        box.classList.add("accent");
        box.style.setProperty("--accent", "#" + Number(c.accent_color).toString(16).padStart(6, "0"));
      }
      for (const child of c.components || []) box.append(component(msg, child));
      return box;
    }
    default: return el("div", "unknown-c", `(a component of type ${c.type} this client cannot show)`);
  }
}
function referenced(msg) {
  const used = new Set();
  const walk = (cs) => {
    for (const c of cs || []) {
      for (const u of [c.media && c.media.url, c.file && c.file.url]) if (u && u.startsWith("attachment://")) used.add(u.slice(13));
      for (const item of c.items || []) if (item.media && item.media.url && item.media.url.startsWith("attachment://")) used.add(item.media.url.slice(13));
      walk(c.components);
      if (c.accessory) walk([c.accessory]);
    }
  };
  walk(msg.components);
  for (const e of msg.embeds || []) for (const k of ["image", "thumbnail"]) {
    const u = e[k] && e[k].url;
    const a = u && (msg.attachments || []).find((x) => x.url === u || "attachment://" + x.filename === u);
    if (a) used.add(a.filename);
  }
  return used;
}

// ---------------------------------------------------------------------------------------------- messages
const EPHEMERAL = 1 << 6, LOADING = 1 << 7, V2 = 1 << 15, SUPPRESS_EMBEDS = 1 << 2;
function renderMessage(msg, prev) {
  const flags = msg.flags || 0;
  const d = el("div", "msg");
  d.dataset.id = msg.id;
  d.dataset.edited = msg.edited_timestamp || "";
  if (msg.mentions_me) d.classList.add("mentioned");
  if (flags & EPHEMERAL) d.classList.add("ephemeral");
  const meta = msg.interaction_metadata;
  const showsCommand = meta && msg.type === 20;
  const sameAuthor = prev && prev.author.id === msg.author.id && !showsCommand &&
    (new Date(msg.timestamp) - new Date(prev.timestamp)) < 7 * 60 * 1000 && !((prev.flags || 0) & EPHEMERAL) && !(flags & EPHEMERAL);
  if (sameAuthor) d.classList.add("grouped");
  if (showsCommand) {
    d.classList.add("has-ref");
    const ref = el("div", "ref");
    ref.append(avatar(meta.user, "tiny"));
    const who = el("b", "", meta.user.global_name || meta.user.username);
    ref.append(who, document.createTextNode(" used "), el("span", "cmd", "/" + (meta.name || "")));
    d.append(ref);
  }
  if (!sameAuthor) {
    d.append(avatar(msg.author));
    const head = el("div", "head");
    head.append(el("span", "author", msg.author.global_name || msg.author.username));
    if (msg.author.bot) head.append(el("span", "tag", "APP"));
    head.append(el("span", "time", stamp(msg.timestamp)));
    d.append(head);
  }
  if (flags & LOADING) {
    d.append(el("div", "thinking", (msg.author.global_name || msg.author.username) + " is thinking"));
  } else if (flags & V2) {
    const v2 = el("div", "v2");
    for (const c of msg.components || []) v2.append(component(msg, c));
    d.append(v2);
  } else {
    if (msg.content) {
      const c = md("content", msg.content);
      if (msg.edited_timestamp) c.append(el("span", "edited", "(edited)"));
      d.append(c);
    }
    const used = referenced(msg);
    const files = (msg.attachments || []).filter((a) => !used.has(a.filename));
    if (files.length) {
      const box = el("div", "attachments");
      for (const a of files) box.append(isImage(a) ? picture(a.url, a.description, false, a) : fileCard(a.filename, a.url, a.size));
      d.append(box);
    }
    if (!(flags & SUPPRESS_EMBEDS)) for (const e of msg.embeds || []) d.append(embed(msg, e));
    for (const c of msg.components || []) d.append(component(msg, c));
  }
  if (S.failed.has(msg.id)) d.append(el("div", "failed", S.failed.get(msg.id)));
  if (flags & EPHEMERAL) {
    const note = el("div", "ephemeral-note");
    note.append(el("span", "", "👁 Only you can see this •"));
    const dismiss = el("a", "", "Dismiss message");
    dismiss.addEventListener("click", () => { S.dismissed.add(msg.id); d.remove(); });
    note.append(dismiss);
    d.append(note);
  }
  return d;
}

function nearBottom() {
  const box = $("#messages");
  return box.scrollHeight - box.scrollTop - box.clientHeight < 120;
}
let pinned = true;
function stickToBottom() {
  if (!pinned) return;
  const box = $("#messages");
  if (box.scrollTop !== box.scrollHeight - box.clientHeight) moved();
  box.scrollTop = box.scrollHeight;
}
$("#messages").addEventListener("scroll", () => { pinned = nearBottom(); });

function renderMessages(list) {
  const box = $("#messages");
  const wasPinned = pinned || nearBottom();
  const fresh = new Map();
  const visible = list.filter((m) => !S.dismissed.has(m.id));
  let prev = null;
  const nodes = [];
  if (!visible.length) nodes.push(welcomeCard());
  for (const m of visible) {
    const key = JSON.stringify(m) + (S.failed.get(m.id) || "") + (prev ? prev.author.id + prev.timestamp : "");
    const old = S.messages.get(m.id);
    const node = old && old.key === key ? old.node : renderMessage(m, prev);
    fresh.set(m.id, {key, node});
    nodes.push(node);
    prev = m;
  }
  // replace only what changed, keeping open dropdowns and scroll position of the rest
  const current = [...box.children];
  if (current.length !== nodes.length || current.some((n, i) => n !== nodes[i])) {
    for (const n of current) if (!nodes.includes(n)) n.remove();
    nodes.forEach((n, i) => { if (box.children[i] !== n) box.insertBefore(n, box.children[i] || null); });
    moved();
  }
  S.messages = fresh;
  pinned = wasPinned;
  stickToBottom();
}

// An empty channel says where one is and what to try: the suggestions the playground was started with
// (``WebClient(welcome=...)``), each a command with its options filled in; a click fills the command box, and
// Enter (or ➤) runs it. An option given as "*" makes one suggestion per choice of that option.
let welcomeNode = null, welcomeKey = "";
function suggestions() {
  const out = [];
  const entries = commandEntries();
  for (const w of (S.state && S.state.welcome) || []) {
    const entry = entries.find((e) => e.title === w.command);
    if (!entry) continue;
    const specs = (entry.spec.options || []).filter((o) => o.type !== 1 && o.type !== 2);
    let variants = [{}];
    for (const [name, value] of Object.entries(w.options || {})) {
      const spec = specs.find((o) => o.name === name);
      if (!spec) continue;
      const choices = (optionChoices(spec) || []).filter((ch) => value === "*" || ch.name === value || ch.value === value);
      const picks = choices.length ? choices : [{name: String(value), value}];
      variants = variants.flatMap((v) => picks.map((ch) => ({...v, [name]: ch})));
    }
    for (const v of variants) out.push({entry, values: v, note: w.note || ""});
  }
  return out;
}
function commandLine(entry, values) {
  return [entry.title, ...Object.entries(values).map(([name, ch]) => `${name}:${ch.name}`)].join(" ");
}
function welcomeCard() {
  const c = findChannel(S.channel);
  const key = JSON.stringify([S.channel, (S.state && S.state.welcome) || [], S.commands.map((e) => e.id)]);
  if (welcomeNode && key === welcomeKey) return welcomeNode;
  welcomeKey = key;
  const card = el("div", "welcome");
  card.append(el("h2", "", "Welcome to " + channelLabel(c)), el("p", "", "This is the start of the channel. Type / to see "
    + "the commands, or click one of these to fill it in, then press Enter:"));
  const list = el("div", "suggestions");
  for (const sug of suggestions()) {
    const b = el("button", "suggestion", commandLine(sug.entry, sug.values));
    b.type = "button";
    if (sug.note) b.title = sug.note;
    b.addEventListener("click", () => {
      startCommand(sug.entry);
      for (const [name, ch] of Object.entries(sug.values)) {
        CMD.values[name] = ch.value; CMD.shown[name] = ch.name;
        if (!CMD.added.includes(name)) CMD.added.push(name);
      }
      renderCommandForm();
      input.focus();
    });
    list.append(b);
  }
  if (!list.children.length) card.lastChild.textContent = "This is the start of the channel. Type / to use a command.";
  else card.append(list);
  welcomeNode = card;
  return card;
}

// ---------------------------------------------------------------------------------------------- sidebar
function unread(channelId) {
  const ids = (S.state && S.state.pings[channelId]) || [];
  return ids.filter((id) => !S.seen.has(id)).length;
}
function markSeen() {
  if (!S.channel || document.hidden) return;
  for (const id of (S.state && S.state.pings[S.channel]) || []) S.seen.add(id);
  sessionStorage.setItem("seen:" + ME, JSON.stringify([...S.seen]));
}
function findChannel(id) {
  if (!S.state) return null;
  for (const g of S.state.guilds) for (const c of g.channels) {
    if (c.id === id) return {...c, guild: g};
    for (const t of c.threads) if (t.id === id) return {...t, guild: g, parent: c};
  }
  const dm = S.state.dms.find((c) => c.id === id);
  return dm ? {...dm, guild: null} : null;
}
function channelLabel(c) {
  if (!c) return "";
  if (c.type === 1) return "@" + (c.recipients && c.recipients[0] ? c.recipients[0].display_name : "DM");
  return (c.type === 11 || c.type === 12 ? "🧵 " : "# ") + c.name;
}
function chanRow(c, extra) {
  const row = el("div", "chan" + (extra ? " " + extra : ""));
  row.dataset.channel = c.id;
  if (c.type === 1) row.append(avatar(c.recipients[0], "small"));
  else row.append(el("span", "hash", c.type === 11 || c.type === 12 ? "🧵" : "#"));
  row.append(el("span", "name", c.type === 1 ? c.recipients[0].display_name : c.name));
  const n = unread(c.id);
  if (n) { row.classList.add("unread"); row.append(el("span", "badge", String(n))); }
  if (c.archived) row.classList.add("archived");
  if (c.id === S.channel) row.classList.add("active");
  row.addEventListener("click", () => { openChannel(c.id); document.body.classList.remove("nav-open"); });
  return row;
}
let sidebarKey = "";
function renderSidebar() {
  const st = S.state;
  // unchanged: keep the nodes (what is hovered or being clicked stays put)
  const key = JSON.stringify([st, S.view, S.channel, [...S.seen].length]);
  if (key === sidebarKey) return;
  sidebarKey = key;
  const rail = $("#rail");
  rail.innerHTML = "";
  const total = (ids) => ids.reduce((n, id) => n + unread(id), 0);
  const home = el("button", "rail-icon" + (S.view === "dms" ? " active" : ""), "💬");
  home.title = "Direct Messages";
  home.dataset.view = "dms";
  const dmCount = total(st.dms.map((c) => c.id));
  if (dmCount) home.append(el("span", "badge", String(dmCount)));
  home.addEventListener("click", () => { S.view = "dms"; renderSidebar(); });
  rail.append(home, el("div", "rail-sep"));
  for (const g of st.guilds) {
    const icon = el("button", "rail-icon" + (S.view === "guild" ? " active" : ""),
      g.name.split(/\s+/).map((w) => w[0]).join("").slice(0, 3));
    icon.title = g.name;
    icon.dataset.view = "guild";
    const ids = g.channels.flatMap((c) => [c.id, ...c.threads.map((t) => t.id)]);
    const n = total(ids);
    if (n) icon.append(el("span", "badge", String(n)));
    icon.addEventListener("click", () => { S.view = "guild"; renderSidebar(); });
    rail.append(icon);
  }
  const list = $("#channels");
  list.innerHTML = "";
  if (S.view === "dms") {
    $("#sidebar-title").textContent = "Direct Messages";
    for (const c of st.dms) list.append(chanRow(c));
  } else {
    const g = st.guilds[0];
    $("#sidebar-title").textContent = g ? g.name : "";
    list.append(el("div", "section", "Text channels"));
    for (const g2 of st.guilds) for (const c of g2.channels) {
      list.append(chanRow(c));
      const active = c.threads.filter((t) => !t.archived), old = c.threads.filter((t) => t.archived);
      for (const t of active.concat(old)) list.append(chanRow(t, "thread"));
    }
  }
  renderMe();
  const all = total(Object.keys(st.pings));
  document.title = (all ? `(${all}) ` : "") + (channelLabel(findChannel(S.channel)) || "Discord") + " · " + st.me.display_name;
}
function renderMe() {
  const st = S.state;
  const box = $("#me");
  box.innerHTML = "";
  const who = el("div", "who");
  who.title = "Switch user";
  const names = el("div", "names");
  names.append(el("div", "", st.me.display_name), el("small", "", "switch user ⌃"));
  who.append(avatar(st.me), names);
  who.addEventListener("click", () => {
    const open = $(".menu", box);
    if (open) { open.remove(); return; }
    const menu = el("div", "menu");
    menu.append(el("div", "hint", "Play as… (one person per tab)"));
    for (const p of st.people) {
      const item = el("div", "item");
      item.dataset.user = p.username;
      const link = el("a", "", "new tab ↗");
      const url = `?user=${encodeURIComponent(p.username)}` + (S.channel ? `&channel=${S.channel}` : "");
      link.href = url;
      link.target = "_blank";
      link.addEventListener("click", (ev) => ev.stopPropagation());
      item.append(el("span", "", p.display_name + (p.username === st.me.username ? " (you)" : "")), link);
      item.addEventListener("click", () => { location.search = url; });
      menu.append(item);
    }
    box.append(menu);
  });
  box.append(who);
}

// ---------------------------------------------------------------------------------------------- navigation
async function openChannel(id) {
  if (!id) return;
  S.channel = id;
  S.messages = new Map();
  S.failed.clear();
  closeFullSize();
  $("#messages").innerHTML = "";
  pinned = true;
  sessionStorage.setItem("channel:" + ME, id);
  const c = findChannel(id);
  if (c) S.view = c.type === 1 ? "dms" : "guild";
  const url = new URL(location.href);
  url.searchParams.set("channel", id);
  history.replaceState(null, "", url);
  cancelCommand();
  await refresh();
}
$("#menu").addEventListener("click", () => document.body.classList.toggle("nav-open"));

let refreshing = null;
async function refresh() {
  if (refreshing) { S.dirty = true; return refreshing; }
  refreshing = (async () => {
    do {
      S.dirty = false;
      try {
        S.state = await api("/client/state");
        if (!S.channel || !findChannel(S.channel)) {
          const g = S.state.guilds[0];
          S.channel = g && g.channels[0] ? g.channels[0].id : S.state.dms[0].id;
        }
        const c = findChannel(S.channel);
        $("#chat-name").textContent = channelLabel(c);
        $("#input").placeholder = "Message " + channelLabel(c);
        if (S.commandsFor !== S.channel) {  // before the messages: an empty channel's welcome suggests them
          S.commands = await api(`/client/channels/${S.channel}/commands`);
          S.commandsFor = S.channel;
        }
        const list = await api(`/client/channels/${S.channel}/messages`);
        renderMessages(list);
        markSeen();
        renderSidebar();
        document.body.dataset.ready = "1";
      } catch (err) {
        toast(err.message);
      }
    } while (S.dirty);
  })();
  try { await refreshing; } finally { refreshing = null; }
}
document.addEventListener("visibilitychange", () => { markSeen(); if (S.state) renderSidebar(); });

// ---------------------------------------------------------------------------------------------- modals
// Every input Discord's modals hold, as its client shows them: text inputs, the five selects, radio groups,
// checkbox groups, single checkboxes and file uploads (each inside a Label, or a legacy action row). Each
// input's element carries ``data-custom-id`` and a ``modalValue()`` giving what Discord's client submits
// (a text, a select's values, a radio group's value or null, a checkbox group's values, a checkbox's true/false).
const REQUIRED_BY_DEFAULT = [3, 4, 5, 6, 7, 8, 19, 21, 22];  // a checkbox cannot be required
function choiceRow(kind, name, o, checked) {
  const row = el("label", "choice");
  const box = el("input");
  box.type = kind;
  box.name = name;
  box.value = String(o.value);
  box.checked = !!checked;
  const txt = el("span", "choice-text");
  txt.append(el("span", "", o.label || String(o.value)));
  if (o.description) txt.append(el("small", "", o.description));
  row.append(box, txt);
  return row;
}
function radioGroup(c) {
  const g = el("div", "radio-group");
  g.setAttribute("role", "radiogroup");
  g.dataset.customId = c.custom_id;
  for (const o of c.options || []) g.append(choiceRow("radio", "radio:" + c.custom_id, o, o.default));
  g.modalValue = () => { const on = g.querySelector("input:checked"); return on ? on.value : null; };
  return g;
}
function checkboxGroup(c) {
  const g = el("div", "checkbox-group");
  g.dataset.customId = c.custom_id;
  const max = c.max_values === undefined ? (c.options || []).length : c.max_values;
  for (const o of c.options || []) g.append(choiceRow("checkbox", "group:" + c.custom_id, o, o.default));
  // no more than max_values ticked at once: the others wait, as Discord's client greys them out
  const limit = () => {
    const ticked = g.querySelectorAll("input:checked").length;
    for (const b of g.querySelectorAll("input")) b.disabled = !b.checked && ticked >= max;
  };
  g.addEventListener("change", limit);
  limit();
  g.modalValue = () => [...g.querySelectorAll("input:checked")].map((b) => b.value);
  return g;
}
function checkbox(c, label) {
  const row = el("label", "choice single");
  const box = el("input");
  box.type = "checkbox";
  box.checked = !!c.default;
  box.dataset.customId = c.custom_id;
  box.modalValue = () => box.checked;
  row.append(box, el("span", "choice-text", label || ""));
  return row;
}
function fileUpload(c) {
  const wrap = el("div", "file-upload");
  wrap.dataset.customId = c.custom_id;
  const input = el("input");
  input.type = "file";
  input.multiple = (c.max_values || 1) > 1;
  const types = (c.file_types || []).map((t) => (t.startsWith(".") ? t : t + "/*"));
  if (types.length) input.accept = types.join(",");
  const n = c.max_values || 1;
  wrap.append(input, el("small", "", `Up to ${n} file${n > 1 ? "s" : ""}`));
  // What Discord's client sends: the files picked (uploaded first; here their bytes go with the submission, as
  // base64 in its JSON, and the emulator puts them where the bot reads them and names them by attachment id).
  wrap.modalValue = () => Promise.all([...input.files].map((f) => new Promise((done, fail) => {
    const reader = new FileReader();
    reader.onload = () => done({filename: f.name, content_type: f.type || null,
                                data: String(reader.result).replace(/^data:[^,]*,/, "")});
    reader.onerror = () => fail(reader.error);
    reader.readAsDataURL(f);
  })));
  return wrap;
}
function modalField(comp, label, description) {
  const inner = comp || {};
  // a <label> around one text box only: around several inputs a click on its text would tick the first
  const f = el(inner.type === 4 ? "label" : "div", "field");
  const text = label || inner.label || "";
  const required = REQUIRED_BY_DEFAULT.includes(inner.type) && inner.required !== false
    && !((inner.type >= 5 && inner.type <= 8 || inner.type === 3) && inner.min_values === 0);
  if (inner.type === 23) {  // a single checkbox: the label beside the box, its description below
    f.append(checkbox(inner, text));
    if (description) f.append(el("small", "", description));
    return f;
  }
  const title = el("span", "", text);
  if (required) title.append(el("span", "req", " *"));
  f.append(title);
  if (description) f.append(el("small", "", description));
  if (inner.type === 4) {
    const input = inner.style === 2 ? el("textarea") : el("input");
    input.dataset.customId = inner.custom_id;
    if (inner.placeholder) input.placeholder = inner.placeholder;
    if (inner.value) input.value = inner.value;
    if (inner.max_length) input.maxLength = inner.max_length;
    if (inner.min_length) input.minLength = inner.min_length;
    input.required = inner.required !== false;
    input.modalValue = () => input.value;
    f.append(input);
  } else if ([3, 5, 6, 7, 8].includes(inner.type)) {
    const sel = selectMenu(inner, () => {});
    sel.modalValue = sel.value;
    f.append(sel);
  } else if (inner.type === 21) {
    f.append(radioGroup(inner));
  } else if (inner.type === 22) {
    f.append(checkboxGroup(inner));
  } else if (inner.type === 19) {
    f.append(fileUpload(inner));
  } else {
    f.append(el("div", "unknown-c", `(an input of type ${inner.type} this client cannot show)`));
  }
  return f;
}
function openModal(modal, interactionId) {
  const root = $("#modal-root");
  root.innerHTML = "";
  const back = el("div", "modal-back");
  const box = el("form", "modal");
  box.setAttribute("role", "dialog");
  const head = el("header");
  head.append(avatar(S.state.bot, "small"), el("span", "", modal.title || ""));
  const fields = el("div", "fields");
  for (const row of modal.components || []) {
    if (row.type === 1) for (const c of row.components || []) fields.append(modalField(c));
    else if (row.type === 18) fields.append(modalField(row.component, row.label, row.description));
    else if (row.type === 10) fields.append(md("text-display", row.content));
    else fields.append(modalField(row));
  }
  const foot = el("footer");
  const cancel = el("button", "cancel", "Cancel");
  cancel.type = "button";
  cancel.addEventListener("click", () => { root.innerHTML = ""; });
  const submit = el("button", "btn s1", "Submit");
  submit.type = "submit";
  foot.append(cancel, submit);
  box.append(head, fields, foot);
  box.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const values = {};
    for (const input of box.querySelectorAll("[data-custom-id]")) {
      if (input.modalValue) values[input.dataset.customId] = await input.modalValue();
    }
    submit.classList.add("loading");
    const answer = await interact({type: 5, interaction_id: interactionId, values});
    submit.classList.remove("loading");
    if (answer) root.innerHTML = "";
    if (answer && answer.failed) toast(answer.failed);
  });
  back.append(box);
  root.append(back);
  const first = box.querySelector("input:not([type]), textarea");
  if (first) first.focus();
}

// ---------------------------------------------------------------------------------------------- slash commands
const LOCALE = () => "en-US";
const local = (obj, key) => ((obj[key + "_localizations"] || {})[LOCALE()]) || obj[key];
function commandEntries() {
  const out = [];
  for (const c of S.commands) {
    const subs = (c.options || []).filter((o) => o.type === 1 || o.type === 2);
    if (!subs.length) { out.push({command: c, path: [], spec: c, title: "/" + local(c, "name")}); continue; }
    for (const s of subs) {
      if (s.type === 1) out.push({command: c, path: [s.name], spec: s, title: `/${local(c, "name")} ${local(s, "name")}`});
      else for (const s2 of s.options || []) {
        out.push({command: c, path: [s.name, s2.name], spec: s2, title: `/${local(c, "name")} ${local(s, "name")} ${local(s2, "name")}`});
      }
    }
  }
  return out;
}
const CMD = {entry: null, values: {}, shown: {}, added: []};
function showCommandPopup(filter) {
  const pop = $("#cmd-popup");
  const q = filter.slice(1).toLowerCase().trim();
  const entries = commandEntries().filter((e) => e.title.slice(1).toLowerCase().startsWith(q) || e.title.toLowerCase().includes(" " + q));
  pop.innerHTML = "";
  pop.append(el("div", "pop-title", entries.length ? "Commands" : "No commands match"));
  for (const e of entries) {
    const item = el("div", "cmd-item");
    item.dataset.command = e.title;
    item.append(el("b", "", e.title), el("small", "", local(e.spec, "description") || ""));
    item.addEventListener("click", () => startCommand(e));
    pop.append(item);
  }
  pop.hidden = false;
}
function hidePopup() { $("#cmd-popup").hidden = true; }
function cancelCommand() {
  CMD.entry = null; CMD.values = {}; CMD.shown = {}; CMD.added = [];
  $("#cmd-form").hidden = true;
  $("#cmd-form").innerHTML = "";
  hidePopup();
}
function startCommand(entry) {
  CMD.entry = entry; CMD.values = {}; CMD.shown = {}; CMD.added = [];
  hidePopup();
  $("#input").value = "";
  renderCommandForm();
  const first = $("#cmd-form input");
  (first || $("#input")).focus();
}
function optionChoices(spec, typed) {
  if (spec.choices) return spec.choices.map((ch) => ({name: local(ch, "name"), value: ch.value}));
  if (spec.type === 5) return [{name: "True", value: true}, {name: "False", value: false}];
  if (spec.type === 6 || spec.type === 9) return S.state.people.concat([S.state.bot]).map((u) => ({name: u.display_name, value: u.id}));
  if (spec.type === 7) {
    const out = [];
    for (const g of S.state.guilds) for (const c of g.channels) out.push({name: "# " + c.name, value: c.id});
    return out;
  }
  return null;
}
function renderCommandForm() {
  const form = $("#cmd-form");
  const e = CMD.entry;
  form.innerHTML = "";
  form.hidden = false;
  form.append(el("span", "cmd-name", e.title));
  const specs = (e.spec.options || []).filter((o) => o.type !== 1 && o.type !== 2);
  const shownSpecs = specs.filter((o) => o.required || CMD.added.includes(o.name));
  for (const spec of shownSpecs) form.append(optionInput(spec));
  for (const spec of specs.filter((o) => !o.required && !CMD.added.includes(o.name))) {
    const add = el("button", "add-opt", "+ " + local(spec, "name"));
    add.type = "button";
    add.dataset.option = spec.name;
    add.title = local(spec, "description") || "";
    add.addEventListener("click", () => {
      CMD.added.push(spec.name); renderCommandForm();
      const input = $(`#cmd-form .opt[data-option="${spec.name}"] input`);
      if (input) input.focus();
    });
    form.append(add);
  }
  form.append(el("div", "cmd-help", (local(e.spec, "description") || "") + " — Enter sends, Esc cancels."));
}
function optionInput(spec) {
  const box = el("div", "opt");
  box.dataset.option = spec.name;
  const label = el("label", "", local(spec, "name"));
  label.title = local(spec, "description") || "";
  const input = el("input");
  input.value = CMD.shown[spec.name] !== undefined ? CMD.shown[spec.name] : "";
  input.placeholder = spec.required ? "required" : "";
  box.append(label, input);
  if (!spec.required) {
    const x = el("button", "x", "×");
    x.type = "button";
    x.addEventListener("click", () => {
      CMD.added = CMD.added.filter((n) => n !== spec.name);
      delete CMD.values[spec.name]; delete CMD.shown[spec.name];
      renderCommandForm();
    });
    box.append(x);
  }
  let list = null;
  const pick = (name, value) => {
    CMD.values[spec.name] = value; CMD.shown[spec.name] = name; input.value = name;
    if (list) { list.remove(); list = null; }
    box.classList.remove("missing");
  };
  const showList = (choices) => {
    if (list) list.remove();
    list = el("div", "opt-list");
    for (const ch of choices) {
      const row = el("div", "sel-opt");
      row.dataset.value = String(ch.value);
      row.append(el("span", "", ch.name));
      row.addEventListener("mousedown", (ev) => { ev.preventDefault(); pick(ch.name, ch.value); });
      list.append(row);
    }
    if (!choices.length) list.append(el("div", "sel-opt", "No options match"));
    box.append(list);
  };
  const fixed = optionChoices(spec);
  let timer = null, asked = 0;
  const ask = async () => {
    const mine = ++asked;
    const entry = CMD.entry;
    if (!entry) return;  // a late keystroke's timer: the command was sent or dropped meanwhile
    const options = {...CMD.values, [spec.name]: input.value};
    const answer = await interact({type: 4, channel_id: S.channel, command_id: entry.command.id, path: entry.path,
      options, focused: spec.name});
    if (mine === asked && answer && answer.choices && document.activeElement === input) {
      showList(answer.choices.map((ch) => ({name: local(ch, "name"), value: ch.value})));
    }
  };
  input.addEventListener("focus", () => {
    if (fixed) showList(fixed);
    else if (spec.autocomplete) ask();
  });
  input.addEventListener("blur", () => { if (list) { list.remove(); list = null; } });
  input.addEventListener("input", () => {
    if (fixed) {
      const q = input.value.toLowerCase();
      showList(fixed.filter((ch) => ch.name.toLowerCase().includes(q)));
      delete CMD.values[spec.name];
      return;
    }
    CMD.values[spec.name] = input.value; CMD.shown[spec.name] = input.value;
    if (spec.autocomplete) { clearTimeout(timer); timer = setTimeout(ask, 200); }
  });
  return box;
}
async function sendCommand() {
  const e = CMD.entry;
  const specs = (e.spec.options || []).filter((o) => o.type !== 1 && o.type !== 2);
  const missing = specs.filter((o) => o.required && (CMD.values[o.name] === undefined || CMD.values[o.name] === ""));
  if (missing.length) {
    for (const o of missing) { const b = $(`#cmd-form .opt[data-option="${o.name}"]`); if (b) b.classList.add("missing"); }
    toast("Fill in " + missing.map((o) => local(o, "name")).join(", "));
    return;
  }
  const options = {};
  for (const o of specs) if (CMD.values[o.name] !== undefined && CMD.values[o.name] !== "") options[o.name] = CMD.values[o.name];
  const body = {type: 2, channel_id: S.channel, command_id: e.command.id, path: e.path, options};
  cancelCommand();
  const answer = await interact(body);
  if (answer && answer.failed) toast(answer.failed);
}

// ---------------------------------------------------------------------------------------------- composer
const input = $("#input");
input.addEventListener("input", () => {
  input.style.height = "auto";
  input.style.height = input.scrollHeight + "px";
  if (input.value.startsWith("/") && !CMD.entry) showCommandPopup(input.value); else hidePopup();
});
async function sendTyped() {
  if (CMD.entry) { await sendCommand(); return; }
  const text = input.value;
  if (text.startsWith("/")) {
    const first = commandEntries().find((e) => e.title.toLowerCase().startsWith(text.toLowerCase().trim()));
    if (first) startCommand(first);
    return;
  }
  if (!text.trim()) return;
  input.value = "";
  try { await api("/client/messages", {channel_id: S.channel, content: text}); } catch (err) { toast(err.message); }
  refresh();
}
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape") { cancelCommand(); $("#modal-root").innerHTML = ""; closeFullSize(); }
  const inComposer = ev.target === input || (ev.target.closest && ev.target.closest("#cmd-form"));
  if (ev.key === "Enter" && !ev.shiftKey && inComposer) { ev.preventDefault(); sendTyped(); }
});
$("#send").addEventListener("click", sendTyped);

// ---------------------------------------------------------------------------------------------- start
async function start() {
  if (!ME) {
    const resp = await fetch("/client/people");
    const people = await resp.json();
    location.search = "?user=" + encodeURIComponent(people[0].username);
    return;
  }
  await refresh();
  const events = new EventSource("/client/events?user=" + encodeURIComponent(ME));
  events.addEventListener("change", () => refresh());
}
start();
