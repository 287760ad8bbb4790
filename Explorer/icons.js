// Image hints are SF Symbols names (`phone`, `shippingbox`, …). The page draws a small inline
// SVG for each name it knows: nothing is downloaded, and inline SVG elements need no
// img-src or style-src exception in the Content-Security-Policy.

const SVG = "http://www.w3.org/2000/svg";

/// Outline drawings on a 24×24 grid, stroked in the text color.
const paths = {
  phone: "M6.6 3h2.6l1.4 4.2-2 1.6a11 11 0 0 0 5.6 5.6l1.6-2 4.2 1.4v2.6a2 2 0 0 1-2 2A16 16 0 0 1 4.6 5a2 2 0 0 1 2-2z",
  magnifyingglass: "M10 4a6 6 0 1 0 0 12a6 6 0 1 0 0-12z M14.5 14.5L20 20",
  shippingbox: "M3 7l9-4 9 4v10l-9 4-9-4z M3 7l9 4 9-4 M12 11v10 M7.5 5l9 4",
  "person.2":
    "M9 5a3 3 0 1 0 0 6a3 3 0 1 0 0-6z M3 20c0-3.3 2.7-6 6-6s6 2.7 6 6 M16.5 6.5a2.5 2.5 0 1 1 0 5 M17 14c2.4.4 4 2.8 4 5.5",
  waveform: "M3 10v4 M7 6v12 M11 3v18 M15 7v10 M19 10v4",
  "waveform.path": "M2 12h3l2-6 3 12 3-15 3 18 2-9h4",
  "building.2": "M3 21h18 M5 21V5l7-2v18 M12 9h7v12 M8 8h1 M8 12h1 M8 16h1 M15 13h1 M15 17h1",
  "doc.text": "M6 2h8l5 5v15H6z M14 2v5h5 M9 12h7 M9 16h7",
  "doc.richtext.fill": "M6 2h8l5 5v15H6z M14 2v5h5 M8.5 18l3-4 2 2 1.5-2 2 4z M9.5 10.5h.01",
  "speaker.wave.2": "M4 9h4l5-4v14l-5-4H4z M16 9a4 4 0 0 1 0 6 M18.5 6.5a8 8 0 0 1 0 11",
  "arrow.clockwise": "M20 12a8 8 0 1 1-2.3-5.7 M20 4v5h-5",
  "chevron.left": "M15 5l-7 7 7 7",
  "chevron.right": "M9 5l7 7-7 7",
  "exclamationmark.triangle": "M12 3l10 18H2z M12 10v5 M12 18v.01",
  "sidebar.left": "M3 4h18v16H3z M9 4v16",
};

/// An <svg> for `name`, or a neutral dot for names this page has no drawing of. Decorative:
/// the row's text says everything, so the icon is hidden from assistive technology.
export function icon(name, className = "icon") {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", className);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.dataset.symbol = name || "";
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", paths[name] || "M12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6z");
  path.setAttribute("fill", "none");
  path.setAttribute("stroke", "currentColor");
  path.setAttribute("stroke-width", "1.6");
  path.setAttribute("stroke-linecap", "round");
  path.setAttribute("stroke-linejoin", "round");
  svg.append(path);
  return svg;
}
