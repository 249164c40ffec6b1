// A search hit for a method opens methods/?method=<anchor> (see codegen/tools/docs_search.py:
// the search worker cannot give a page-less hit a #fragment): go to that anchor, as a
// #fragment would, and keep the address a reader can copy.
(function () {
  "use strict";
  function go() {
    const params = new URLSearchParams(window.location.search);
    const anchor = params.get("method");
    if (!anchor || window.location.hash) return;
    const target = document.getElementById(anchor);
    if (!target) return;
    history.replaceState(null, "", "#" + encodeURIComponent(anchor));
    target.scrollIntoView();
  }
  if (typeof document$ !== "undefined") {
    document$.subscribe(go);
  } else {
    document.addEventListener("DOMContentLoaded", go);
  }
})();
