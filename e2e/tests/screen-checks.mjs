// What every screen must be at any width and in either language, as
// functions a test (tests/screens.test.mjs) or a picture script
// (bench/screenshots.mjs) runs on an open page:
// - nothing wider than the screen, and no text cut off: an element that
//   clips its own text, a placeholder longer than its field, a chart label
//   shortened with "…";
// - in Chinese, no English word outside the names a person reads as they
//   are (model ids, provider names, units, code-like tokens);
// - one colour per target across every chart of the screen.
//
// Charts are canvases, so what they draw is recorded as they draw it:
// `recordCanvas` wraps the 2D context's drawing calls before the page's own
// script runs, and `chartDrawings` reads, per canvas, its texts and its
// coloured shapes. The runner's HTML report draws the same charts as SVG;
// `svgDrawings` reads the same two lists from its elements.

/** Installs the canvas recorder in every page of `context` (before any script of the page). */
export async function recordCanvas(context) {
  await context.addInitScript(() => {
    const logs = new WeakMap();
    window.__canvasLogs = logs;
    const proto = CanvasRenderingContext2D.prototype;
    const state = new WeakMap();
    const of = (ctx) => {
      let s = state.get(ctx);
      if (!s) {
        s = { box: null, arc: false, vertices: 0 };
        state.set(ctx, s);
      }
      return s;
    };
    const log = (ctx) => {
      let l = logs.get(ctx.canvas);
      if (!l) {
        l = [];
        logs.set(ctx.canvas, l);
      }
      return l;
    };
    const grow = (ctx, x, y, r = 0) => {
      const s = of(ctx);
      const b = s.box ?? { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
      s.box = { left: Math.min(b.left, x - r), top: Math.min(b.top, y - r), right: Math.max(b.right, x + r), bottom: Math.max(b.bottom, y + r) };
    };
    const wrap = (name, before) => {
      const original = proto[name];
      proto[name] = function (...args) {
        before(this, ...args);
        return original.apply(this, args);
      };
    };
    wrap("beginPath", (ctx) => Object.assign(of(ctx), { box: null, arc: false, vertices: 0 }));
    wrap("moveTo", (ctx, x, y) => (grow(ctx, x, y), of(ctx).vertices++));
    wrap("lineTo", (ctx, x, y) => (grow(ctx, x, y), of(ctx).vertices++));
    wrap("rect", (ctx, x, y, w, h) => (grow(ctx, x, y), grow(ctx, x + w, y + h)));
    wrap("arc", (ctx, x, y, r) => (grow(ctx, x, y, r), (of(ctx).arc = true)));
    // The point markers a chart draws: a filled circle is a dot, a filled
    // square standing on a corner (four vertices, as wide as high) a diamond.
    const markOf = (s) => {
      if (!s.box) return undefined;
      if (s.arc && s.vertices === 0) return "dot";
      const { left, right, top, bottom } = s.box;
      if (!s.arc && s.vertices === 4 && Math.abs(right - left - (bottom - top)) <= 1) return "diamond";
      return undefined;
    };
    const shape = (ctx, colour, box, mark) => {
      if (!box) return;
      // A fill of the whole canvas is a new drawing: forget the old one.
      if (box.left <= 0 && box.top <= 0 && box.right >= ctx.canvas.width - 1 && box.bottom >= ctx.canvas.height - 1) {
        log(ctx).length = 0;
        return;
      }
      log(ctx).push({ kind: "shape", colour: String(colour), ...box, ...(mark ? { mark } : {}) });
    };
    wrap("stroke", (ctx) => shape(ctx, ctx.strokeStyle, of(ctx).box));
    wrap("fill", (ctx) => shape(ctx, ctx.fillStyle, of(ctx).box, markOf(of(ctx))));
    wrap("fillRect", (ctx, x, y, w, h) => shape(ctx, ctx.fillStyle, { left: x, top: y, right: x + w, bottom: y + h }));
    wrap("strokeRect", (ctx, x, y, w, h) => shape(ctx, ctx.strokeStyle, { left: x, top: y, right: x + w, bottom: y + h }));
    wrap("fillText", (ctx, text, x, y) => {
      const width = ctx.measureText(text).width;
      const left = ctx.textAlign === "end" || ctx.textAlign === "right" ? x - width : ctx.textAlign === "center" ? x - width / 2 : x;
      const size = Number(/(\d+(?:\.\d+)?)px/.exec(ctx.font)?.[1] ?? 12);
      const centre = ctx.textBaseline === "top" ? y + size / 2 : ctx.textBaseline === "bottom" ? y - size / 2 : y;
      const m = ctx.getTransform();
      const turned = m.b !== 0 || m.c !== 0;
      log(ctx).push({ kind: "text", text: String(text), left, right: left + width, top: centre - size / 2, bottom: centre + size / 2, turned });
    });
  });
}

/** Per chart canvas on the page: `{ id, caption, ops }`, ops in drawing order (device pixels). */
export async function chartDrawings(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("figure.chart canvas")]
      .filter((canvas) => canvas.getClientRects().length > 0)
      .map((canvas) => ({
        id: canvas.id,
        caption: canvas.closest("figure")?.querySelector("figcaption span")?.textContent ?? "",
        ops: (window.__canvasLogs?.get(canvas) ?? []).map((op) => ({ ...op })),
      })),
  );
}

/** The same for the SVG charts of the runner's HTML report. */
export async function svgDrawings(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("figure.chart")].map((figure) => {
      const ops = [];
      // The report draws a chart twice, for wide and for narrow screens, and shows one.
      const svg = [...figure.querySelectorAll("svg")].find((s) => s.getClientRects().length > 0);
      if (!svg) return { id: figure.id, caption: "", ops };
      const origin = svg.getBoundingClientRect();
      for (const el of svg.querySelectorAll("*")) {
        const box = el.getBoundingClientRect();
        const at = { left: box.left - origin.left, right: box.right - origin.left, top: box.top - origin.top, bottom: box.bottom - origin.top };
        if (el.tagName === "text") {
          ops.push({ kind: "text", text: el.textContent.trim(), ...at, turned: /rotate/.test(el.getAttribute("transform") ?? "") });
        } else if (["line", "polyline", "rect", "circle", "polygon", "path"].includes(el.tagName)) {
          // The colours the chart wrote, not the defaults (an unfilled line computes to black).
          for (const paint of [el.getAttribute("stroke"), el.getAttribute("fill")]) {
            if (paint && paint !== "none") ops.push({ kind: "shape", colour: paint, ...at });
          }
        }
      }
      return { id: figure.id, caption: figure.querySelector("figcaption")?.textContent ?? "", ops };
    }),
  );
}

/** The Okabe–Ito series colours the charts draw targets in (crates/chart/src/palette.rs). */
const SERIES = {
  "0,114,178": "blue",
  "230,159,0": "orange",
  "0,158,115": "bluish green",
  "204,121,167": "reddish purple",
  "86,180,233": "sky blue",
  "213,94,0": "vermillion",
  "0,0,0": "black",
  "240,228,66": "yellow",
};

/** The series colour a CSS colour is (alpha ignored), or null. */
function seriesColour(css) {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(css);
  const rgb = hex ? hex.slice(1).map((h) => parseInt(h, 16)) : (/rgba?\(([^)]+)\)/.exec(css)?.[1].split(",").slice(0, 3).map((v) => Math.round(Number(v))) ?? []);
  return SERIES[rgb.join(",")] ?? null;
}

/** Whether drawn `text` names `label`: the whole label, or its start cut with "…". */
function names(text, label) {
  if (text.startsWith(label)) return true;
  const cut = text.indexOf("…");
  return cut > 3 && label.startsWith(text.slice(0, cut));
}

/**
 * Target → series colour of each chart that draws it: `{ chart, target, colour, how }`.
 * - a target named in a legend takes its swatch's colour (the coloured
 *   shape drawn just before the label, ending just left of it on its line);
 * - a target named elsewhere in the drawing (a box plot's row, a
 *   histogram's subtitle) takes the colour of the marks below its name, down
 *   to the next target's name;
 * - a chart of one target named only in its caption (an hour-of-day chart)
 *   takes the colour of all its marks, unless its legend names other series
 *   (`others`: a dashboard's vantages), whose colours are theirs.
 * The alert colour (vermillion: p95 markers, errors) counts only in a legend.
 */
export function targetColours(charts, labels, others = []) {
  const found = [];
  const byLength = [...new Set(labels)].filter(Boolean).sort((a, b) => b.length - a.length);
  const mid = (op) => (op.top + op.bottom) / 2;
  for (const chart of charts) {
    const ops = chart.ops.map((op, index) => ({ ...op, index }));
    const texts = ops.filter((op) => op.kind === "text" && !op.turned);
    const shapes = ops.filter((op) => op.kind === "shape" && seriesColour(op.colour));
    const swatchOf = (text) => {
      const h = Math.max(text.bottom - text.top, 4);
      return shapes.filter((s) => s.index < text.index && s.right <= text.left + 1 && text.left - s.right < 4 * h && Math.abs(mid(s) - mid(text)) <= h / 2).at(-1);
    };
    const legend = texts.map((text) => ({ text, swatch: swatchOf(text) })).filter((entry) => entry.swatch);
    const labelOf = (text) => byLength.find((l) => names(text.text, l));
    for (const { text, swatch } of legend) {
      const label = labelOf(text);
      if (label !== undefined) found.push({ chart: chart.id, target: label, colour: seriesColour(swatch.colour), how: "legend" });
    }
    const inLegend = new Set(legend.map((entry) => entry.text.index));
    const rows = texts.filter((text) => !inLegend.has(text.index) && labelOf(text) !== undefined).sort((a, b) => mid(a) - mid(b));
    for (const [k, text] of rows.entries()) {
      const below = rows[k + 1] ? mid(rows[k + 1]) - 2 : Infinity;
      const marks = shapes.filter((s) => mid(s) >= mid(text) - 2 && mid(s) < below && seriesColour(s.colour) !== "vermillion");
      for (const colour of new Set(marks.map((s) => seriesColour(s.colour)))) found.push({ chart: chart.id, target: labelOf(text), colour, how: "row" });
    }
    const captioned = byLength.filter((l) => chart.caption.includes(l));
    const otherSeries = legend.some((entry) => others.some((o) => names(entry.text.text, o)));
    if (captioned.length === 1 && !otherSeries && !found.some((f) => f.chart === chart.id)) {
      const marks = shapes.filter((s) => seriesColour(s.colour) !== "vermillion");
      for (const colour of new Set(marks.map((s) => seriesColour(s.colour)))) found.push({ chart: chart.id, target: captioned[0], colour, how: "caption" });
    }
  }
  return found;
}

/** Problems with colours across a screen's charts: a target in two colours, or two targets in one. */
export function colourProblems(found) {
  const problems = [];
  const colours = new Map();
  for (const f of found) {
    if (!colours.has(f.target)) colours.set(f.target, new Map());
    const seen = colours.get(f.target);
    if (!seen.has(f.colour)) seen.set(f.colour, []);
    seen.get(f.colour).push(f.chart);
  }
  for (const [target, seen] of colours) {
    if (seen.size > 1) problems.push(`${target} is drawn in ${[...seen].map(([c, charts]) => `${c} (${charts.join(", ")})`).join(" and ")}`);
  }
  const owner = new Map();
  for (const [target, seen] of colours) {
    for (const colour of seen.keys()) {
      if (owner.has(colour) && owner.get(colour) !== target) problems.push(`${owner.get(colour)} and ${target} share ${colour}`);
      owner.set(colour, target);
    }
  }
  return problems;
}

/**
 * Charts whose legend does not show the point markers its series are drawn
 * with: each kind of marker (a dot, a diamond) drawn among the data must be
 * drawn in the legend too, just left of an entry's label, and the legend
 * shows no marker the data does not use. A marker belongs to the legend when
 * it is the last thing drawn before a label, beside it on its line.
 */
export function markerLegendProblems(charts) {
  const problems = [];
  const mid = (op) => (op.top + op.bottom) / 2;
  for (const chart of charts) {
    const ops = chart.ops.map((op, index) => ({ ...op, index }));
    const inLegend = new Set();
    for (const text of ops.filter((op) => op.kind === "text" && !op.turned)) {
      const h = Math.max(text.bottom - text.top, 4);
      // The shapes drawn after the text before this one: the entry's swatch.
      let k = text.index - 1;
      while (k >= 0 && ops[k].kind !== "text") {
        const op = ops[k];
        if (op.mark && op.right <= text.left + 1 && text.left - op.right < 4 * h && Math.abs(mid(op) - mid(text)) <= h / 2) inLegend.add(op.index);
        k--;
      }
    }
    const kinds = (inside) => new Set(ops.filter((op) => op.mark && inLegend.has(op.index) === inside).map((op) => op.mark));
    const drawn = kinds(false);
    const legend = kinds(true);
    for (const mark of drawn) if (!legend.has(mark)) problems.push(`${chart.id}: its points are drawn as a ${mark} the legend does not show`);
    for (const mark of legend) if (!drawn.has(mark)) problems.push(`${chart.id}: its legend shows a ${mark} no point is drawn as`);
  }
  return problems;
}

/** Chart labels drawn shortened ("Demo A · s…"). */
export function cutChartText(charts) {
  return charts.flatMap((chart) => chart.ops.filter((op) => op.kind === "text" && op.text.includes("…")).map((op) => `${chart.id}: "${op.text}"`));
}

/**
 * What of the section `selector` does not fit a screen `width` px wide: the
 * section past either edge, or the section, its table's box or a cell cut
 * off or scrolling sideways. Empty when everything fits.
 */
export async function sectionOverflow(page, selector, width) {
  const problems = [];
  const box = await page.locator(selector).boundingBox();
  if (!(box.x >= 0 && box.x + box.width <= width)) problems.push(`${selector} outside the screen: ${JSON.stringify(box)}`);
  const overflowing = await page.$$eval(`${selector}, ${selector} .table-wrap, ${selector} td`, (els) =>
    els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.outerHTML.slice(0, 120)),
  );
  problems.push(...overflowing.map((html) => `cut off or scrolls sideways: ${html}`));
  return problems;
}

/**
 * What does not fit the screen at its width: the page wider than the
 * viewport, visible text pushed past the right edge outside a sideways
 * scroller, an element that clips its own text (overflow hidden or an
 * ellipsis), a placeholder or a chosen option longer than its field.
 */
export async function layoutProblems(page) {
  return page.evaluate(() => {
    const problems = [];
    const root = document.documentElement;
    const width = root.clientWidth;
    if (root.scrollWidth > width) problems.push(`the page is ${root.scrollWidth} px wide on a ${width} px screen`);
    const describe = (el) => {
      const id = el.id ? `#${el.id}` : "";
      const cls = typeof el.className === "string" && el.className ? `.${el.className.trim().split(/\s+/).join(".")}` : "";
      return `${el.tagName.toLowerCase()}${id}${cls}`;
    };
    const visible = (el) => {
      if (el.getClientRects().length === 0) return false;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden") return false;
      // Content that is skipped until scrolled near still lays out the same.
      return !el.closest("details:not([open]) > :not(summary)");
    };
    const scroller = (el) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const o = getComputedStyle(a).overflowX;
        if (o === "auto" || o === "scroll") return a;
      }
      return null;
    };
    const ownText = (el) => [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    const measure = document.createElement("canvas").getContext("2d");
    const textWidth = (text, style) => {
      measure.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      return measure.measureText(text).width;
    };
    for (const el of document.body.querySelectorAll("*")) {
      if (!visible(el)) continue;
      const style = getComputedStyle(el);
      const tag = el.tagName;
      if (tag === "INPUT" || tag === "SELECT") {
        const text = tag === "SELECT" ? (el.selectedOptions[0]?.textContent ?? "") : el.value === "" ? el.placeholder : "";
        if (!text || ["checkbox", "radio", "file", "hidden"].includes(el.type)) continue;
        const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - (tag === "SELECT" ? 20 : 0);
        const need = textWidth(text, style);
        if (need > room + 1) problems.push(`${describe(el)} shows "${text}" in ${Math.round(room)} px (needs ${Math.round(need)})`);
        continue;
      }
      if (!ownText(el)) continue;
      const box = el.getBoundingClientRect();
      if (box.right > width + 1 && !scroller(el)) problems.push(`${describe(el)} "${el.textContent.trim().slice(0, 40)}" ends at ${Math.round(box.right)} px, past the ${width} px screen`);
      // A figure in a table that scrolls sideways must be in sight as the table opens.
      const shown = scroller(el)?.getBoundingClientRect();
      if (shown && el.matches("td[data-value], td[data-value] *") && box.left >= shown.right - 1) {
        problems.push(`${describe(el)} "${el.textContent.trim().slice(0, 40)}" is scrolled out of sight in its table (starts at ${Math.round(box.left)} px, the table shows up to ${Math.round(shown.right)})`);
      }
      const clips = ["hidden", "clip"].includes(style.overflowX) || style.textOverflow === "ellipsis";
      if (clips && el.scrollWidth > el.clientWidth + 1 && !el.closest(".visually-hidden") && style.position !== "absolute") {
        problems.push(`${describe(el)} cuts "${el.textContent.trim().slice(0, 40)}" (${el.scrollWidth} px of text in ${el.clientWidth})`);
      }
    }
    return problems;
  });
}

/**
 * Latin-script words Chinese may show: the product's name, the English
 * button (a language offered in its own name), the demo providers' letters,
 * and technical words Chinese-speaking readers write in Latin letters too
 * (statistics, file formats, protocol names, units, product names).
 */
export const ALLOWED_LATIN = new Set([
  "FirstToken", "English", "Token", "TTFT", "CV", "IQR", "JSON", "CSV", "PNG", "PDF", "HTML", "API", "URL", "HTTP", "HTTPS",
  "CORS", "SSE", "DNS", "TCP", "TLS", "UTC", "ID", "A", "B", "C", "n", "ms", "s", "min", "h", "kB", "MB", "xx",
  "YAML", "GitHub", "Pages", "LiteLLM", "OpenRouter", "OpenAI", "Anthropic", "Gemini", "Google", "DeepSeek", "Asia", "Shanghai",
]);

/** Names quoted as they are, several words long or mixed case: a storage API, an endpoint, a header. */
const VERBATIM = ["localStorage", "GitHub Pages", "streamGenerateContent", "Retry-After", "firsttoken report", "report --html", "firsttoken run", "firsttoken"];

/**
 * Chinese says Token for a token, as in 首 Token 延迟: never 词元, 首字 or a
 * lowercase token (code such as max_tokens aside).
 */
export function tokenWordProblems(texts) {
  const other = /词元|首字|(?<![A-Za-z_])token(?![A-Za-z_])/;
  return [...new Set(texts.filter((t) => other.test(t)))].map((t) => `a token is not called Token in "${t.trim().slice(0, 90)}"`);
}

/**
 * English words in `texts` once the names a person reads as they are (the
 * given `names`: target labels, models, providers, URLs) and code-like
 * tokens (anything with a digit, a dot, a slash, an underscore, an @ or a
 * colon inside, and quoted `code`) are taken out.
 */
/**
 * What of a failure's recorded message a report may show as data: the whole
 * first line (the English report quotes it), and each "; "-separated piece
 * of the provider's own part after "from provider: " (a Chinese report says
 * the failure in Chinese around the provider's words).
 */
export function recordedWords(samples) {
  return samples.flatMap((s) => {
    const line = s.error?.message?.split("\n")[0]?.trim();
    if (!line) return [];
    const said = line.split(" from provider: ")[1] ?? "";
    return [line, ...said.split("; ").map((piece) => piece.trim()).filter((piece) => piece.length > 0)];
  });
}

export function englishWords(texts, names = []) {
  const longest = [...new Set(names)].filter(Boolean).sort((a, b) => b.length - a.length);
  const left = new Set();
  for (const original of texts) {
    let text = original;
    // A name is taken out where it stands as a word of its own: model "m" is a name, the m of "from" is not.
    for (const name of [...longest, ...VERBATIM]) {
      const quoted = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      text = text.replace(new RegExp(`(?<![A-Za-z0-9])${quoted}(?![A-Za-z0-9])`, "g"), " ");
    }
    text = text
      .replace(/[a-z][a-z0-9+.-]*:\/\/\S*/gi, " ")
      .replace(/\S*[A-Za-z]\S*[0-9_@/.:=]\S*|\S*[0-9_@/.:=]\S*[A-Za-z]\S*/g, " ")
      .replace(/\b[a-z][a-z0-9]*(?:-[a-z0-9]+)+\b/g, " ");
    for (const word of text.match(/[A-Za-z][A-Za-z'’-]*/g) ?? []) {
      if (!ALLOWED_LATIN.has(word)) left.add(`${word} (in "${original.trim().slice(0, 90)}")`);
    }
  }
  return [...left];
}

/** Every text a person reads on the page: visible text, placeholders, labels for assistive technology, chosen options. */
export async function visibleTexts(page) {
  return page.evaluate(() => {
    const texts = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      // Code, replies and ids are quoted as they are, in any language.
      if (!node.textContent.trim() || !el || el.closest("script, style, noscript, code, pre, kbd, samp")) continue;
      if (el.getClientRects().length === 0 && !el.closest("details")) continue;
      texts.push(node.textContent);
    }
    for (const el of document.body.querySelectorAll("[placeholder], [aria-label], [title], input[type=button], input[type=submit]")) {
      for (const attr of ["placeholder", "aria-label", "title", "value"]) {
        if (attr === "value" && !["button", "submit"].includes(el.type)) continue;
        const value = el.getAttribute(attr);
        if (value?.trim() && value !== "×") texts.push(value);
      }
    }
    return texts;
  });
}
