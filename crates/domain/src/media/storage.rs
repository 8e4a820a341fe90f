//! Where image bytes live: a directory under the data dir, or an S3-compatible bucket, both
//! through `object_store`. Every key is made here from a server-made id (`objects/{id}` for the
//! clean image people see, `uploads/{id}` for what a browser put into the bucket before it was
//! checked, `variants/{id}-{width}` for its display copies, `exports/{id}.zip` for a member's
//! data archive); nothing a client sends becomes part of a path.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use base64::Engine as _;
use bytes::Bytes;
use futures::StreamExt as _;
use hmac::{Hmac, Mac};
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::local::LocalFileSystem;
use object_store::path::Path as StorePath;
use object_store::signer::Signer as _;
use object_store::{ObjectStore, ObjectStoreExt as _, PutMode, PutOptions, PutPayload};
use sha2::Sha256;

use super::checks::CheckQueue;
use super::images::{MAX_BYTES, VARIANT_WIDTHS, Variant};
use murmur_core::clock::{MINUTE, Millis};
use murmur_core::config::Config;
use murmur_core::config::S3Settings;
use murmur_core::error::{Error, Result};

/// How long a handed-out upload URL works.
pub const UPLOAD_URL_LIFETIME: Millis = 15 * MINUTE;

/// Where uploaded images live. Cheap to clone.
#[derive(Clone)]
pub struct MediaStore {
    inner: Arc<Inner>,
}

struct Inner {
    /// This instance's origin, e.g. `https://murmur.example`: upload URLs point at it, and
    /// absolute image URLs must be on it.
    public_origin: String,
    backend: Backend,
    checks: CheckQueue,
    /// Uploads whose bytes a request of this process is receiving and checking now.
    receiving: std::sync::Mutex<std::collections::HashSet<String>>,
}

/// An upload being received (`MediaStore::start_receiving`), until dropped.
pub struct Receiving {
    store: MediaStore,
    id: String,
}

impl Receiving {
    pub fn store(&self) -> &MediaStore {
        &self.store
    }

    pub fn id(&self) -> &str {
        &self.id
    }
}

impl Drop for Receiving {
    fn drop(&mut self) {
        if let Ok(mut receiving) = self.store.inner.receiving.lock() {
            receiving.remove(&self.id);
        }
    }
}

enum Backend {
    Local {
        store: Arc<LocalFileSystem>,
        /// HMAC key for upload URLs (the server secret).
        key: Vec<u8>,
    },
    S3 {
        store: Arc<AmazonS3>,
        /// Origin of the bucket's endpoint, e.g. `https://s3.eu-west-1.amazonaws.com`.
        origin: String,
        /// What a presigned upload URL starts with, up to the id (no query).
        upload_prefix: String,
    },
}

impl MediaStore {
    pub async fn from_config(config: &Config) -> anyhow::Result<MediaStore> {
        let public_origin = config.public_origin();
        let backend = match config.storage_url.as_deref() {
            None => {
                let dir = config.data_dir.join("media");
                std::fs::create_dir_all(&dir)
                    .with_context(|| format!("creating the media directory {}", dir.display()))?;
                let store = Arc::new(LocalFileSystem::new_with_prefix(&dir)?);
                let key = server_secret(config)?;
                Backend::Local { store, key }
            }
            Some(url) if url.starts_with("s3://") => s3_backend(url, &config.s3).await?,
            Some(other) => anyhow::bail!(
                "unsupported MURMUR_STORAGE_URL {other:?} (expected s3://bucket, or unset for local files)"
            ),
        };
        let checks = CheckQueue::new(murmur_core::db::cores());
        Ok(MediaStore { inner: Arc::new(Inner { public_origin, backend, checks, receiving: Default::default() }) })
    }

    /// The origin of an external bucket the browser talks to (for the CSP), if any.
    pub fn external_origin(&self) -> Option<String> {
        match &self.inner.backend {
            Backend::Local { .. } => None,
            Backend::S3 { origin, .. } => Some(origin.clone()),
        }
    }

    /// Lists the store once (`health`): it is there and these credentials may read it.
    pub async fn probe(&self) -> Result<()> {
        let prefix = StorePath::from("objects");
        match self.store().list(Some(&prefix)).next().await {
            None | Some(Ok(_)) => Ok(()),
            Some(Err(e)) => Err(unavailable(e)),
        }
    }

    /// The bound on image checks running in this process.
    pub fn checks(&self) -> &CheckQueue {
        &self.inner.checks
    }

    /// Marks upload `id` as being received by this request; None when another request of this
    /// process already is. A second PUT of one upload URL is then refused at once instead of
    /// waiting for a place in the check queue only to be refused after (across processes the
    /// create-only store of the checked image decides).
    pub fn start_receiving(&self, id: &str) -> Option<Receiving> {
        let mut receiving = self.inner.receiving.lock().ok()?;
        receiving.insert(id.to_string()).then(|| Receiving { store: self.clone(), id: id.to_string() })
    }

    pub fn is_s3(&self) -> bool {
        matches!(self.inner.backend, Backend::S3 { .. })
    }

    /// The address the browser PUTs the file to.
    pub async fn upload_url(&self, id: &str, now: Millis) -> Result<String> {
        match &self.inner.backend {
            Backend::Local { key, .. } => {
                let expires = now + UPLOAD_URL_LIFETIME;
                let sig = sign(key, id, expires);
                Ok(format!("{}/api/objects/upload/{id}?expires={expires}&sig={sig}", self.inner.public_origin))
            }
            Backend::S3 { store, .. } => {
                let lifetime = Duration::from_millis(UPLOAD_URL_LIFETIME as u64);
                let url = store
                    .signed_url(object_store::signer::Method::PUT, &upload_key(id), lifetime)
                    .await
                    .context("presigning an upload URL")?;
                Ok(url.to_string())
            }
        }
    }

    /// Checks a local upload URL's signature and expiry (403 when either is wrong).
    pub fn verify_upload_signature(&self, id: &str, expires: Millis, sig: &str, now: Millis) -> Result<()> {
        let Backend::Local { key, .. } = &self.inner.backend else {
            return Err(Error::not_found("Uploads go to the bucket on this instance"));
        };
        let Ok(given) = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(sig) else {
            return Err(Error::forbidden("The upload link is not valid"));
        };
        // Constant-time comparison, so the signature cannot be guessed byte by byte.
        if mac(key, id, expires).verify_slice(&given).is_err() {
            return Err(Error::forbidden("The upload link is not valid"));
        }
        if now > expires {
            return Err(Error::forbidden("The upload link has expired; please upload the file again"));
        }
        Ok(())
    }

    /// Stores the clean image people will see. `create_only` refuses to replace an existing
    /// one (a second PUT racing the first).
    pub async fn put_image(&self, id: &str, bytes: Vec<u8>, create_only: bool) -> Result<()> {
        let mode = if create_only { PutMode::Create } else { PutMode::Overwrite };
        let options = PutOptions { mode, ..Default::default() };
        match self.store().put_opts(&object_key(id), PutPayload::from(bytes), options).await {
            Ok(_) => Ok(()),
            Err(object_store::Error::AlreadyExists { .. }) => {
                Err(Error::conflict("This upload has already been received"))
            }
            Err(e) => Err(unavailable(e)),
        }
    }

    /// The clean image, if stored.
    pub async fn get_image(&self, id: &str) -> Result<Option<Bytes>> {
        match self.store().get(&object_key(id)).await {
            Ok(found) => Ok(Some(found.bytes().await.map_err(unavailable)?)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(unavailable(e)),
        }
    }

    /// Stores an image's display copies beside it (replacing any from an earlier check).
    pub async fn put_variants(&self, id: &str, variants: &[Variant]) -> Result<()> {
        for variant in variants {
            let payload = PutPayload::from(variant.bytes.clone());
            self.store().put(&variant_key(id, variant.width), payload).await.map_err(unavailable)?;
        }
        Ok(())
    }

    /// A display copy, if one was made. `width` must be one of `VARIANT_WIDTHS`.
    pub async fn get_variant(&self, id: &str, width: u32) -> Result<Option<Bytes>> {
        debug_assert!(VARIANT_WIDTHS.contains(&width));
        match self.store().get(&variant_key(id, width)).await {
            Ok(found) => Ok(Some(found.bytes().await.map_err(unavailable)?)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(unavailable(e)),
        }
    }

    /// What a browser put into the bucket for `id` (S3 only), read at most up to the size limit:
    /// None when nothing arrived, `Err(PayloadTooLarge)` when it is too big.
    pub async fn fetch_upload(&self, id: &str) -> Result<Option<Bytes>> {
        let key = upload_key(id);
        let result = match self.store().get(&key).await {
            Ok(found) => found,
            Err(object_store::Error::NotFound { .. }) => return Ok(None),
            Err(e) => return Err(unavailable(e)),
        };
        let size = result.meta.size;
        if size > MAX_BYTES as u64 {
            return Err(too_large());
        }
        // Count while reading too, rather than trust the size stated before the body.
        let mut stream = result.into_stream();
        let mut bytes = Vec::with_capacity(size as usize);
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(unavailable)?;
            if bytes.len() + chunk.len() > MAX_BYTES {
                return Err(too_large());
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(Some(Bytes::from(bytes)))
    }

    /// Removes what a browser put into the bucket (kept metadata and all) once checked.
    pub async fn delete_upload(&self, id: &str) -> Result<()> {
        self.delete_key(&upload_key(id)).await
    }

    /// Removes everything stored for `id`: the image, its display copies (by name: every width
    /// there may be one for, so no listing is needed) and, on S3, the unchecked original.
    pub async fn delete_all(&self, id: &str) -> Result<()> {
        self.delete_key(&object_key(id)).await?;
        for width in VARIANT_WIDTHS {
            self.delete_key(&variant_key(id, width)).await?;
        }
        if self.is_s3() {
            self.delete_key(&upload_key(id)).await?;
        }
        Ok(())
    }

    /// Uploads waiting in the bucket, with when each was written (S3 only; at most `limit`).
    pub async fn list_uploads(&self, limit: usize) -> Result<Vec<(String, Millis)>> {
        let Backend::S3 { store, .. } = &self.inner.backend else {
            return Ok(Vec::new());
        };
        let prefix = StorePath::from("uploads");
        let mut listing = store.list(Some(&prefix)).take(limit);
        let mut found = Vec::new();
        while let Some(meta) = listing.next().await {
            let meta = meta.map_err(unavailable)?;
            if let Some(id) = meta.location.filename().filter(|name| is_media_id(name)) {
                found.push((id.to_string(), meta.last_modified.timestamp_millis()));
            }
        }
        Ok(found)
    }

    /// A writer of a member's data archive `id`: sent in parts as it is written (multipart on
    /// S3, a staging file on the local store), so an archive of any size is never held in memory.
    /// Nothing is there under the key until `shutdown` completes it; `abort` drops what was sent.
    pub fn archive_writer(&self, id: &str) -> object_store::buffered::BufWriter {
        let store: Arc<dyn ObjectStore> = match &self.inner.backend {
            Backend::Local { store, .. } => store.clone(),
            Backend::S3 { store, .. } => store.clone(),
        };
        object_store::buffered::BufWriter::new(store, archive_key(id))
    }

    /// A data archive's size and its bytes as a stream, if stored.
    pub async fn open_archive(
        &self,
        id: &str,
    ) -> Result<Option<(u64, futures::stream::BoxStream<'static, object_store::Result<Bytes>>)>> {
        match self.store().get(&archive_key(id)).await {
            Ok(found) => Ok(Some((found.meta.size, found.into_stream()))),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(unavailable(e)),
        }
    }

    /// A stored object's bytes as a stream (an image copied into a data archive): None when
    /// it is not there.
    pub async fn open_image(
        &self,
        id: &str,
    ) -> Result<Option<futures::stream::BoxStream<'static, object_store::Result<Bytes>>>> {
        match self.store().get(&object_key(id)).await {
            Ok(found) => Ok(Some(found.into_stream())),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(unavailable(e)),
        }
    }

    /// Removes a data archive (gone already is fine).
    pub async fn delete_archive(&self, id: &str) -> Result<()> {
        self.delete_key(&archive_key(id)).await
    }

    /// Data archives in the store, with when each was written (at most `limit`): upkeep
    /// removes those no export names.
    pub async fn list_archives(&self, limit: usize) -> Result<Vec<(String, Millis)>> {
        let prefix = StorePath::from("exports");
        let mut listing = self.store().list(Some(&prefix)).take(limit);
        let mut found = Vec::new();
        while let Some(meta) = listing.next().await {
            let meta = meta.map_err(unavailable)?;
            let id = meta.location.filename().and_then(|name| name.strip_suffix(".zip")).filter(|id| is_media_id(id));
            if let Some(id) = id {
                found.push((id.to_string(), meta.last_modified.timestamp_millis()));
            }
        }
        Ok(found)
    }

    async fn delete_key(&self, key: &StorePath) -> Result<()> {
        match self.store().delete(key).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(unavailable(e)),
        }
    }

    /// The media id an image URL names, if it is a URL this instance hands out or answers:
    /// `/objects/{id}` (relative, or absolute on the public origin), a local upload URL on the
    /// public origin, or a presigned upload URL into this instance's bucket. Query strings and
    /// fragments are ignored: what counts is whose upload the id is, which the caller checks.
    pub fn id_from_url(&self, url: &str) -> Option<String> {
        let url = url.trim();
        if url.len() > 4096 {
            return None;
        }
        let without_query = url.split(['?', '#']).next().unwrap_or_default();
        let path = if without_query.starts_with('/') && !without_query.starts_with("//") {
            without_query
        } else if let Some(rest) = without_query.strip_prefix(self.inner.public_origin.as_str()) {
            rest
        } else if let Backend::S3 { upload_prefix, .. } = &self.inner.backend {
            return without_query.strip_prefix(upload_prefix.as_str()).filter(|id| is_media_id(id)).map(str::to_string);
        } else {
            return None;
        };
        let id = path.strip_prefix("/objects/").or_else(|| path.strip_prefix("/api/objects/upload/"))?;
        is_media_id(id).then(|| id.to_string())
    }

    fn store(&self) -> &dyn ObjectStore {
        match &self.inner.backend {
            Backend::Local { store, .. } => store.as_ref(),
            Backend::S3 { store, .. } => store.as_ref(),
        }
    }
}

/// A media id as the server makes them: 128 random bits, lowercase hex.
pub fn new_media_id() -> String {
    hex::encode(murmur_core::secrets::random_bytes::<16>())
}

pub fn is_media_id(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn object_key(id: &str) -> StorePath {
    StorePath::from(format!("objects/{id}"))
}

/// Not under `objects/{id}/`: on the local store `objects/{id}` is a file, not a directory.
fn variant_key(id: &str, width: u32) -> StorePath {
    StorePath::from(format!("variants/{id}-{width}"))
}

/// A member's data archive; `id` is random (`new_media_id`), so the key cannot be guessed.
fn archive_key(id: &str) -> StorePath {
    StorePath::from(format!("exports/{id}.zip"))
}

fn upload_key(id: &str) -> StorePath {
    StorePath::from(format!("uploads/{id}"))
}

fn too_large() -> Error {
    Error::PayloadTooLarge("The image is larger than 10 MiB".into())
}

/// A storage failure the person can do nothing about but retry later (logged).
fn unavailable(e: object_store::Error) -> Error {
    tracing::error!(error = %e, "media storage failed");
    Error::Unavailable("Image storage is not reachable right now; please try again shortly".into())
}

type HmacSha256 = Hmac<Sha256>;

fn mac(key: &[u8], id: &str, expires: Millis) -> HmacSha256 {
    let mut mac = HmacSha256::new_from_slice(key).expect("HMAC takes keys of any length");
    // The prefix keeps these signatures from ever meaning anything else signed with this key.
    mac.update(format!("murmur-upload\n{id}\n{expires}").as_bytes());
    mac
}

fn sign(key: &[u8], id: &str, expires: Millis) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(mac(key, id, expires).finalize().into_bytes())
}

/// The server secret: `MURMUR_SECRET`, or a random one made once in `<data-dir>/secret`
/// (readable by the owner only) so that upload URLs survive a restart.
fn server_secret(config: &Config) -> anyhow::Result<Vec<u8>> {
    if let Some(secret) = &config.secret {
        return Ok(secret.as_bytes().to_vec());
    }
    let path = config.data_dir.join("secret");
    let fresh = hex::encode(murmur_core::secrets::random_bytes::<32>());
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(&path) {
        Ok(mut file) => {
            std::io::Write::write_all(&mut file, fresh.as_bytes())
                .with_context(|| format!("writing {}", path.display()))?;
            file.sync_all()?;
            Ok(fresh.into_bytes())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let stored = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
            let stored = stored.trim();
            anyhow::ensure!(stored.len() >= 32, "{} is too short to be a secret", path.display());
            Ok(stored.as_bytes().to_vec())
        }
        Err(e) => Err(e).with_context(|| format!("creating {}", path.display())),
    }
}

async fn s3_backend(url: &str, settings: &S3Settings) -> anyhow::Result<Backend> {
    // AWS_* variables first; explicit settings win over them.
    let mut builder = AmazonS3Builder::from_env().with_url(url);
    if let Some(endpoint) = settings.endpoint.as_deref().filter(|e| !e.is_empty()) {
        builder = builder.with_endpoint(endpoint);
    }
    if let Some(region) = &settings.region {
        builder = builder.with_region(region);
    }
    if let Some(key) = &settings.access_key_id {
        builder = builder.with_access_key_id(key);
    }
    if let Some(secret) = &settings.secret_access_key {
        builder = builder.with_secret_access_key(secret);
    }
    let endpoint = settings.endpoint.clone().or_else(|| std::env::var("AWS_ENDPOINT_URL").ok());
    if endpoint.as_deref().is_some_and(|e| e.starts_with("http://")) {
        builder = builder.with_allow_http(true);
    }
    let store = Arc::new(builder.build().context("configuring the S3 bucket")?);
    // Learn where presigned URLs point (endpoint, path or virtual-hosted style) from one of
    // them, so the CSP and the URL check agree with what the browser is given. This also
    // checks at start-up that credentials are there.
    let probe_id = "0".repeat(32);
    let probe = store
        .signed_url(object_store::signer::Method::PUT, &upload_key(&probe_id), Duration::from_secs(60))
        .await
        .context("presigning a URL for the bucket (are AWS credentials set?)")?;
    let origin = probe.origin().ascii_serialization();
    let mut prefix = probe.clone();
    prefix.set_query(None);
    let upload_prefix = prefix.as_str().strip_suffix(&probe_id).context("unexpected presigned URL shape")?.to_string();
    tracing::info!(bucket = url, %origin, "media stored in an S3 bucket");
    Ok(Backend::S3 { store, origin, upload_prefix })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_ids_are_32_lowercase_hex() {
        let id = new_media_id();
        assert!(is_media_id(&id), "{id}");
        assert!(!is_media_id(&id.to_uppercase()));
        assert!(!is_media_id("../../etc/passwd"));
        assert!(!is_media_id(&id[..31]));
    }

    #[test]
    fn signatures_depend_on_id_expiry_and_key() {
        let a = sign(b"key", "abc", 1);
        assert_ne!(a, sign(b"key", "abd", 1));
        assert_ne!(a, sign(b"key", "abc", 2));
        assert_ne!(a, sign(b"other", "abc", 1));
        assert_eq!(a, sign(b"key", "abc", 1));
    }
}
