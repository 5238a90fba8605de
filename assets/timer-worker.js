// Timer worker: the page's waits between requests run here because browsers
// throttle timers of hidden pages (to once a second, then once a minute),
// while a dedicated worker's timers keep their time. The page posts
// {id, ms}; the worker answers {id} when the time is up.
"use strict";
self.onmessage = (event) => {
  const { id, ms } = event.data;
  setTimeout(() => self.postMessage({ id }), Math.max(0, ms));
};
