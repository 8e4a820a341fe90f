//! Image URL → media id: whatever URL a post names, the id answered (if any) is a media id
//! (32 lower-case hex) that the URL really contains, and `/objects/{id}` maps back to it.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use murmur::media::{MediaStore, is_media_id};

fn store() -> &'static MediaStore {
    static STORE: OnceLock<(tempfile::TempDir, MediaStore)> = OnceLock::new();
    &STORE
        .get_or_init(|| {
            let dir = tempfile::tempdir().unwrap();
            let config = murmur::Config {
                data_dir: dir.path().to_path_buf(),
                database_url: String::new(),
                public_url: "https://murmur.example".parse().unwrap(),
                smtp_url: None,
                mail_from: String::new(),
                storage_url: None,
                secret: Some("fuzz".into()),
                s3: Default::default(),
                addr: "127.0.0.1:0".parse().unwrap(),
                feed_cache: murmur::config::FeedCacheSettings::new(0, 0),
                trusted_proxies: Default::default(),
                metrics_addr: None,
                outbound_allow: Default::default(),
                vapid_private_key: None,
                link_previews: Default::default(),
            };
            let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
            let store = rt.block_on(MediaStore::from_config(&config)).unwrap();
            (dir, store)
        })
        .1
}

fuzz_target!(|url: &str| {
    let store = store();
    let _ = is_media_id(url);
    if let Some(id) = store.id_from_url(url) {
        assert!(is_media_id(&id), "{id:?} from {url:?}");
        assert!(url.contains(&id), "{id:?} is not in {url:?}");
        assert_eq!(store.id_from_url(&format!("/objects/{id}")).as_deref(), Some(id.as_str()));
    }
});
