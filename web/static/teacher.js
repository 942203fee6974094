// The deck builder: show only the stage choices of the chosen rite (the server reads only those).
"use strict";
(function () {
  const select = document.getElementById("rite");
  if (!select) return;
  function update() {
    document.querySelectorAll("fieldset.stages").forEach((fs) => {
      fs.hidden = fs.dataset.rite !== select.value;
    });
  }
  select.addEventListener("change", update);
  update();
})();
