// On a phone the reference tables are stacked, a card per row (codegen.css): each cell is
// labelled with its column's heading here, so "yes" still reads as "Required: yes".
(function () {
  "use strict";
  function label() {
    for (const table of document.querySelectorAll(".md-typeset table:not([class])")) {
      const heads = Array.from(table.querySelectorAll("thead th")).map((th) =>
        th.textContent.trim()
      );
      for (const row of table.querySelectorAll("tbody tr")) {
        Array.from(row.children).forEach((cell, i) => {
          if (heads[i]) cell.dataset.label = heads[i];
        });
      }
    }
  }
  if (typeof document$ !== "undefined") {
    document$.subscribe(label);
  } else {
    document.addEventListener("DOMContentLoaded", label);
  }
})();
