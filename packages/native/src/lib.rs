use napi_derive::napi;

#[napi]
pub fn duroxide_version() -> String {
    String::from("0.1.32")
}
