/* rulediff site search: ranks the documents of search/index.js (window.RULEDIFF_SEARCH).
   An exact rule number or glossary term first; then bm25 over number, title and text
   (weights from the index), a phrase found whole before scattered words; then the
   rule's place in the edition. Works from file:// (no fetch). */
(function () {
  "use strict";
  var data = window.RULEDIFF_SEARCH;
  var form = document.querySelector(".search-form");
  var input = document.getElementById("q");
  var list = document.getElementById("results");
  var status = document.getElementById("search-status");
  if (!data || !input || !list) { return; }
  var W = data.weights, docs = data.docs;
  function textHref(d) { return data.text + "#" + (d[0] === "g" ? d[4] : "r" + d[1]); }
  function historyHref(d) { return d[0] === "r" ? d[4] : ""; }
  var NUMBER = /^\s*(\d{1,3}(?:\.\d+[a-z]*)?)\.?\s*$/i;

  function fold(s) {
    return s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  function words(s) { return fold(s).match(/[\p{L}\p{N}_]+/gu) || []; }

  // Per-document folded fields and token counts, and document frequencies.
  var prepared = [], df = {}, total = 0;
  docs.forEach(function (d, i) {
    var tokens = [words(d[1]), words(d[2]), words(d[3])];
    var fields = [fold(d[1]).trim(), " " + tokens[1].join(" ") + " ", " " + tokens[2].join(" ") + " "];
    var seen = {};
    tokens.forEach(function (ts) { ts.forEach(function (t) { seen[t] = 1; }); });
    Object.keys(seen).forEach(function (t) { df[t] = (df[t] || 0) + 1; });
    total += tokens[2].length;
    prepared.push({ i: i, fields: fields, tokens: tokens });
  });
  var avg = total / Math.max(docs.length, 1), N = docs.length;

  function tf(ts, t) { var n = 0; for (var k = 0; k < ts.length; k++) { if (ts[k] === t) { n++; } } return n; }

  function score(p, terms, phrases, required) {
    var s = 0;
    for (var k = 0; k < terms.length; k++) {
      var t = terms[k], found = 0;
      var idf = Math.log(1 + (N - (df[t] || 0) + 0.5) / ((df[t] || 0) + 0.5));
      for (var f = 0; f < 3; f++) {
        var n = tf(p.tokens[f], t);
        if (!n) { continue; }
        found = 1;
        var len = f === 2 ? p.tokens[2].length / avg : 1;
        s += W[f] * idf * (n * 2.2) / (n + 1.2 * (0.25 + 0.75 * len));
      }
      if (!found) { return 0; }
    }
    for (var j = 0; j < phrases.length; j++) {
      var ph = " " + phrases[j] + " ";
      if (" " + p.fields[0] + " " === ph || p.fields[1].indexOf(ph) >= 0) { s += 1000; }
      else if (p.fields[2].indexOf(ph) >= 0) { s += 100; }
      else if (required) { return 0; }
    }
    return s;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function link(href, text, cls) { var a = el("a", cls, text); a.href = href; return a; }

  function snippet(text, terms) {
    var flat = text.replace(/\s+/g, " "), low = fold(flat), at = -1;
    for (var k = 0; k < terms.length && at < 0; k++) { at = low.indexOf(terms[k]); }
    var start = Math.max(0, at - 60);
    if (start > 0) { var space = flat.indexOf(" ", start); start = space >= 0 && space < at ? space + 1 : start; }
    var out = flat.slice(start, start + 220);
    return (start > 0 ? "… " : "") + out + (start + 220 < flat.length ? " …" : "");
  }

  function run(query) {
    list.textContent = "";
    query = (query || "").trim();
    if (!query) { status.textContent = "Type a rule number or some words."; return; }
    var m = NUMBER.exec(query);
    if (m) {
      var num = m[1].toLowerCase();
      for (var k = 0; k < docs.length; k++) {
        if (docs[k][0] !== "g" && docs[k][1].toLowerCase() === num) {
          location.replace(historyHref(docs[k]) || textHref(docs[k]));
          return;
        }
      }
    }
    var quoted = [];
    query.replace(/"([^"]+)"/g, function (_, p) { quoted.push(words(p).join(" ")); return ""; });
    var terms = words(query);
    var phrases = quoted.length ? quoted : (terms.length > 1 ? [terms.join(" ")] : []);
    var fq = fold(query), hits = [];
    prepared.forEach(function (p) {
      var d = docs[p.i], s;
      if (d[0] === "g" && p.fields[0] === fq) { s = 1e6; }
      else if (d[0] !== "g" && m && p.fields[0].indexOf(m[1].toLowerCase()) === 0) { s = 1e5 - p.fields[0].length; }
      else { s = score(p, terms, phrases, quoted.length > 0); }
      if (s > 0) { hits.push([s, p.i]); }
    });
    hits.sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; });
    status.textContent = hits.length ? hits.length + " result" + (hits.length === 1 ? "" : "s") + " in the edition of " + data.edition + (hits.length > 50 ? " (the first 50 shown)" : "") + "." : "No rule or glossary entry of " + data.edition + " has all of these words.";
    hits.slice(0, 50).forEach(function (h) {
      var d = docs[h[1]], li = el("li", "hit");
      var head = el("p", "hit-head");
      head.appendChild(link(textHref(d), d[0] === "g" ? d[1] : d[1] + (d[2] ? " " + d[2] : ""), "hit-title"));
      if (d[0] === "g") { head.appendChild(document.createTextNode(" (glossary)")); }
      if (historyHref(d)) {
        head.appendChild(document.createTextNode(" · "));
        var hist = link(historyHref(d), "history", "hist");
        hist.setAttribute("aria-label", "History of rule " + d[1]);
        head.appendChild(hist);
      }
      li.appendChild(head);
      if (d[3]) { li.appendChild(el("p", "hit-text", snippet(d[3], terms))); }
      list.appendChild(li);
    });
  }

  var params = new URLSearchParams(location.search);
  var initial = params.get("q") || "";
  input.value = initial;
  if (initial) { run(initial); }
  if (form) {
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var url = new URL(location.href);
      url.searchParams.set("q", input.value);
      history.replaceState(null, "", url.toString());
      run(input.value);
    });
  }
})();
