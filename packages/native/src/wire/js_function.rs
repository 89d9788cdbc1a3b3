//! Calling an async JavaScript function from any Rust thread and awaiting its promise.

use std::cell::Cell;
use std::rc::Rc;

use duroxide::providers::ProviderError;
use napi::bindgen_prelude::{CallbackContext, FromNapiValue, JsValuesTupleIntoVec, PromiseRaw, Unknown};
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi::Status;
use tokio::sync::oneshot;

use crate::errors::{provider_error_from_js_throw, provider_error_from_rejection};

/// A JavaScript function `(args: A) => Promise<R>` that Rust may call from any thread. It is
/// weak, so a provider object held by Rust never keeps the Node process alive on its own.
///
/// Struct fields spell this type out in full: napi's type generator reads the field's written
/// type to produce the TypeScript signature.
pub type JsAsyncFn<A, R> = ThreadsafeFunction<A, PromiseRaw<'static, R>, A, Status, false, true>;

type Settlement<R> = Result<R, ProviderError>;

/// Calls `function` with `args` on the JavaScript thread and waits for the promise it returns.
///
/// A rejection or a synchronous throw becomes a `ProviderError`: a duro `ProviderError` keeps its
/// operation, message and retryable flag; anything else becomes a permanent error of
/// `operation` naming what was thrown.
pub async fn call_js<A, R>(function: &JsAsyncFn<A, R>, operation: &'static str, args: A) -> Settlement<R>
where
    A: JsValuesTupleIntoVec + 'static,
    R: FromNapiValue + Send + 'static,
{
    let (sender, receiver) = oneshot::channel::<Settlement<R>>();
    let status =
        function.call_with_return_value(args, ThreadsafeFunctionCallMode::NonBlocking, move |returned, _env| {
            match returned {
                Ok(promise) => settle_when_done(promise, sender, operation),
                Err(thrown) => {
                    let _ = sender.send(Err(provider_error_from_js_throw(operation, &thrown)));
                }
            }
            Ok(())
        });
    if status != Status::Ok {
        return Err(ProviderError::permanent(
            operation,
            format!("the JavaScript provider can no longer be called ({status})"),
        ));
    }
    receiver.await.unwrap_or_else(|_| {
        Err(ProviderError::permanent(
            operation,
            "the JavaScript provider method did not return a promise",
        ))
    })
}

/// Runs on the JavaScript thread: forwards the promise's outcome to the waiting Rust task.
fn settle_when_done<R>(promise: PromiseRaw<'static, R>, sender: oneshot::Sender<Settlement<R>>, operation: &'static str)
where
    R: FromNapiValue + Send + 'static,
{
    // Either callback may run, but only one settles: whichever takes the sender first.
    let on_fulfil = Rc::new(Cell::new(Some(sender)));
    let on_reject = Rc::clone(&on_fulfil);
    let chained = promise.then(move |ctx: CallbackContext<R>| {
        if let Some(sender) = on_fulfil.take() {
            let _ = sender.send(Ok(ctx.value));
        }
        Ok(())
    });
    // A resolved value that does not convert to `R` rejects the chained promise, so the catch
    // below also reports shape errors, naming the field napi could not read.
    if let Ok(chained) = chained {
        let _ = chained.catch(move |ctx: CallbackContext<Unknown>| {
            if let Some(sender) = on_reject.take() {
                let _ = sender.send(Err(provider_error_from_rejection(operation, ctx.value)));
            }
            Ok(())
        });
    }
}
