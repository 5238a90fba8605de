//! Browser storage: every finished sample goes to IndexedDB the moment it
//! completes, so a reload or a crash loses nothing and a run can resume.
//!
//! Why IndexedDB and not localStorage: 10 000 samples are about 3.5 MB of
//! JSON, close to localStorage's 5 MB per origin (shared by every project
//! page of one GitHub user), and localStorage would rewrite the whole run
//! on every sample. IndexedDB appends one small record per sample.
//!
//! Layout (database `firsttoken`, version 1):
//! - `runs`: key = run id, value = the run record as JSON text;
//! - `samples`: key = `"{run id}/{target:04}/{seq:06}"`, value = sample JSON
//!   text, so one key range reads a whole run in order.
//!
//! Keys are kept in localStorage only when the person chose "remember on
//! this device"; otherwise they live in memory and are gone on reload.

use js_sys::{Array, Promise};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbKeyRange, IdbRequest, IdbTransactionMode};

use super::error::BrowserError;

const DB_NAME: &str = "firsttoken";
const DB_VERSION: u32 = 1;
const RUNS: &str = "runs";
const SAMPLES: &str = "samples";
/// localStorage key holding remembered provider keys (JSON object).
const KEYS_ITEM: &str = "firsttoken.keys";

/// An open results database.
#[derive(Clone)]
pub struct Store {
    db: IdbDatabase,
}

/// Turns an `IDBRequest` into a future of its result.
async fn settle(request: &IdbRequest) -> Result<JsValue, JsValue> {
    let promise = Promise::new(&mut |resolve, reject| {
        let ok_request = request.clone();
        let on_success = super::once_js(Box::new(move || {
            let result = ok_request.result().unwrap_or(JsValue::UNDEFINED);
            let _ = resolve.call1(&JsValue::NULL, &result);
        }));
        let err_request = request.clone();
        let on_error = super::once_js(Box::new(move || {
            let error = err_request
                .error()
                .ok()
                .flatten()
                .map(JsValue::from)
                .unwrap_or(JsValue::NULL);
            let _ = reject.call1(&JsValue::NULL, &error);
        }));
        request.set_onsuccess(Some(on_success.unchecked_ref()));
        request.set_onerror(Some(on_error.unchecked_ref()));
    });
    JsFuture::from(promise).await
}

fn sample_key(run_id: &str, target: u32, seq: u32) -> String {
    format!("{run_id}/{target:04}/{seq:06}")
}

impl Store {
    /// Opens (and on first use creates) the database.
    ///
    /// # Errors
    /// When IndexedDB is unavailable (some private modes) or refuses.
    pub async fn open() -> Result<Self, BrowserError> {
        let context = "open the results database";
        let window =
            web_sys::window().ok_or_else(|| BrowserError::missing(context, "no window"))?;
        let factory = window
            .indexed_db()
            .map_err(|e| BrowserError::from_js(context, &e))?
            .ok_or_else(|| BrowserError::missing(context, "IndexedDB is not available"))?;
        let open = factory
            .open_with_u32(DB_NAME, DB_VERSION)
            .map_err(|e| BrowserError::from_js(context, &e))?;
        let upgrade_request = open.clone();
        let on_upgrade = super::once_js(Box::new(move || {
            if let Ok(result) = upgrade_request.result() {
                let db: IdbDatabase = result.unchecked_into();
                let names = db.object_store_names();
                if !names.contains(RUNS) {
                    let _ = db.create_object_store(RUNS);
                }
                if !names.contains(SAMPLES) {
                    let _ = db.create_object_store(SAMPLES);
                }
            }
        }));
        open.set_onupgradeneeded(Some(on_upgrade.unchecked_ref()));
        let db = settle(&open)
            .await
            .map_err(|e| BrowserError::from_js(context, &e))?;
        Ok(Self {
            db: db.unchecked_into(),
        })
    }

    async fn put(
        &self,
        store: &str,
        key: &str,
        value: &str,
        context: &'static str,
    ) -> Result<(), BrowserError> {
        let tx = self
            .db
            .transaction_with_str_and_mode(store, IdbTransactionMode::Readwrite)
            .map_err(|e| BrowserError::from_js(context, &e))?;
        let object_store = tx
            .object_store(store)
            .map_err(|e| BrowserError::from_js(context, &e))?;
        let request = object_store
            .put_with_key(&JsValue::from_str(value), &JsValue::from_str(key))
            .map_err(|e| BrowserError::from_js(context, &e))?;
        settle(&request)
            .await
            .map_err(|e| BrowserError::from_js(context, &e))?;
        Ok(())
    }

    /// Saves (or replaces) a run record.
    ///
    /// # Errors
    /// When the browser refuses the write (quota, private mode).
    pub async fn put_run(&self, run_id: &str, json: &str) -> Result<(), BrowserError> {
        self.put(RUNS, run_id, json, "save the run").await
    }

    /// Saves one finished sample of a run.
    ///
    /// # Errors
    /// When the browser refuses the write (quota, private mode).
    pub async fn put_sample(
        &self,
        run_id: &str,
        target: u32,
        seq: u32,
        json: &str,
    ) -> Result<(), BrowserError> {
        self.put(
            SAMPLES,
            &sample_key(run_id, target, seq),
            json,
            "save a sample",
        )
        .await
    }

    /// Every value of `store` (within `range` when given), as text.
    async fn all_text(
        &self,
        store: &str,
        range: Option<&IdbKeyRange>,
        context: &'static str,
    ) -> Result<Vec<String>, BrowserError> {
        let tx = self
            .db
            .transaction_with_str(store)
            .map_err(|e| BrowserError::from_js(context, &e))?;
        let object_store = tx
            .object_store(store)
            .map_err(|e| BrowserError::from_js(context, &e))?;
        let request = match range {
            Some(range) => object_store.get_all_with_key(range),
            None => object_store.get_all(),
        }
        .map_err(|e| BrowserError::from_js(context, &e))?;
        let all = settle(&request)
            .await
            .map_err(|e| BrowserError::from_js(context, &e))?;
        Ok(all
            .unchecked_into::<Array>()
            .iter()
            .filter_map(|v| v.as_string())
            .collect())
    }

    /// Every run record, as JSON text.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub async fn runs(&self) -> Result<Vec<String>, BrowserError> {
        self.all_text(RUNS, None, "read the run history").await
    }

    /// The samples of one run, in (target, seq) order, as JSON text.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub async fn samples(&self, run_id: &str) -> Result<Vec<String>, BrowserError> {
        let context = "read the run's samples";
        let range = run_range(run_id).map_err(|e| BrowserError::from_js(context, &e))?;
        self.all_text(SAMPLES, Some(&range), context).await
    }

    /// Deletes a run and all its samples.
    ///
    /// # Errors
    /// When the browser refuses the delete.
    pub async fn delete_run(&self, run_id: &str) -> Result<(), BrowserError> {
        let context = "delete the run";
        let names = Array::of2(&RUNS.into(), &SAMPLES.into());
        let tx = self
            .db
            .transaction_with_str_sequence_and_mode(&names, IdbTransactionMode::Readwrite)
            .map_err(|e| BrowserError::from_js(context, &e))?;
        let runs = tx
            .object_store(RUNS)
            .map_err(|e| BrowserError::from_js(context, &e))?;
        let samples = tx
            .object_store(SAMPLES)
            .map_err(|e| BrowserError::from_js(context, &e))?;
        let range = run_range(run_id).map_err(|e| BrowserError::from_js(context, &e))?;
        let first = runs
            .delete(&JsValue::from_str(run_id))
            .map_err(|e| BrowserError::from_js(context, &e))?;
        let second = samples
            .delete(&range)
            .map_err(|e| BrowserError::from_js(context, &e))?;
        settle(&first)
            .await
            .map_err(|e| BrowserError::from_js(context, &e))?;
        settle(&second)
            .await
            .map_err(|e| BrowserError::from_js(context, &e))?;
        Ok(())
    }
}

fn run_range(run_id: &str) -> Result<IdbKeyRange, JsValue> {
    // '0' sorts right after '/', so [id/, id0) holds exactly this run's keys.
    IdbKeyRange::bound(
        &JsValue::from_str(&format!("{run_id}/")),
        &JsValue::from_str(&format!("{run_id}0")),
    )
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Remembered provider keys (JSON object text), if the person opted in.
pub fn remembered_keys() -> Option<String> {
    local_storage()?.get_item(KEYS_ITEM).ok().flatten()
}

/// Remembers provider keys on this device (opt-in only).
///
/// # Errors
/// When localStorage is unavailable or full.
pub fn remember_keys(json: &str) -> Result<(), BrowserError> {
    let storage = local_storage()
        .ok_or_else(|| BrowserError::missing("remember keys", "localStorage is not available"))?;
    storage
        .set_item(KEYS_ITEM, json)
        .map_err(|e| BrowserError::from_js("remember keys", &e))
}

/// Origins this device has sent a key to before (`firsttoken.key-origins`,
/// a JSON list): a link whose keyed hosts are all here starts without
/// asking. Holds host names only, never a key.
const USED_ORIGINS_ITEM: &str = "firsttoken.key-origins";

/// The origins keys were sent to from this device; empty when none or
/// when localStorage is unavailable.
pub fn used_key_origins() -> Vec<String> {
    local_storage()
        .and_then(|storage| storage.get_item(USED_ORIGINS_ITEM).ok().flatten())
        .and_then(|json| crate::core::base::document::read_quietly::<Vec<String>>(&json))
        .unwrap_or_default()
}

/// Adds `origins` to the used list.
///
/// # Errors
/// When localStorage is unavailable or full.
pub fn add_used_key_origins(origins: &[String]) -> Result<(), BrowserError> {
    let mut used = used_key_origins();
    for origin in origins {
        if !used.contains(origin) {
            used.push(origin.clone());
        }
    }
    let storage = local_storage().ok_or_else(|| {
        BrowserError::missing("remember key hosts", "localStorage is not available")
    })?;
    storage
        .set_item(
            USED_ORIGINS_ITEM,
            &crate::core::base::document::to_string(&used),
        )
        .map_err(|e| BrowserError::from_js("remember key hosts", &e))
}

/// The language the person chose with the English / 中文 buttons
/// (`firsttoken.lang`, a BCP 47 tag): a reload keeps it, where the
/// browser's own preference would switch back.
const LANG_ITEM: &str = "firsttoken.lang";

/// The language tag chosen on this device, if any.
pub fn remembered_lang() -> Option<String> {
    local_storage()?.get_item(LANG_ITEM).ok().flatten()
}

/// Keeps the chosen language tag; a storage that refuses it only means
/// the next visit follows the browser's language again.
pub fn remember_lang(tag: &str) {
    if let Some(storage) = local_storage() {
        let _ = storage.set_item(LANG_ITEM, tag);
    }
}

/// Forgets every remembered key.
pub fn forget_keys() {
    if let Some(storage) = local_storage() {
        let _ = storage.remove_item(KEYS_ITEM);
        let _ = storage.remove_item(USED_ORIGINS_ITEM);
    }
}
