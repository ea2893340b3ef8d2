// Deadlines (ms since the epoch, from the view's `deadlines` and `timers`) shown as a
// countdown that ticks down in place. One timer for the page: every element made here
// is refreshed each quarter second while it is in the document.

const ticking = new Set();
setInterval(() => ticking.forEach(refresh), 250);

/** A <time> element counting down to `deadline`; `label` says what runs out. */
export function countdown(deadline, label) {
  const element = document.createElement("time");
  element.className = "countdown";
  element.dataset.deadline = deadline;
  element.setAttribute("aria-label", label);
  element.title = label;
  refresh(element);
  ticking.add(element);
  return element;
}

function refresh(element) {
  if (!element.isConnected && element.dataset.shown) return ticking.delete(element);
  element.dataset.shown = "1";
  const left = Math.max(0, Number(element.dataset.deadline) - Date.now());
  const seconds = Math.ceil(left / 1000);
  element.textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  element.classList.toggle("urgent", seconds <= 10);
  element.dateTime = `PT${seconds}S`;
}
