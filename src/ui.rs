//! The page: a pure state reducer (tested natively) and, on wasm32, the Yew
//! components that wire it to the DOM.
