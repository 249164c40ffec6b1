// Renders the docs' Mermaid diagrams (div.diagram, see codegen/tools/docs_fences.py) in the
// page, at their natural size: a wide diagram scrolls sideways instead of shrinking its text.
// Mermaid is served by the site itself (no CDN). When every diagram of the page is done,
// <html data-diagrams="done"> tells a browser test it may look (data-diagrams-errors counts
// the diagrams Mermaid could not render).
(function () {
  "use strict";
  if (typeof mermaid === "undefined") {
    document.documentElement.dataset.diagrams = "unavailable";
    return;
  }
  mermaid.initialize({
    startOnLoad: false,
    securityLevel: "strict",
    theme: "neutral",
    fontFamily: "var(--md-text-font-family, sans-serif)",
    class: { useMaxWidth: false },
    sequence: { useMaxWidth: false, showSequenceNumbers: false },
  });
  async function render() {
    const root = document.documentElement;
    root.dataset.diagrams = "rendering";
    const nodes = Array.from(document.querySelectorAll("div.diagram:not([data-processed])"));
    let errors = 0;
    for (const node of nodes) {
      try {
        await mermaid.run({ nodes: [node], suppressErrors: false });
      } catch (error) {
        errors += 1;
        node.classList.add("diagram-error");
        console.error("diagram", error);
      }
    }
    root.dataset.diagramsErrors = String(errors);
    root.dataset.diagrams = "done";
  }
  if (typeof document$ !== "undefined") {
    document$.subscribe(render);
  } else {
    document.addEventListener("DOMContentLoaded", render);
  }
})();
