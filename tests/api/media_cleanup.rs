//! The orphan cleanup also removes images that were attached once and are referred to no
//! more: a deleted post's images and a replaced avatar.

use std::time::Duration;

use serde_json::json;

use crate::both_databases;
use crate::common::{Member, TestApp};
use crate::fixtures::png;
use crate::media::{id_of, uploaded};
use crate::posts::{delete, id, post, put};

async fn image(app: &TestApp, who: &Member) -> String {
    id_of(&uploaded(app, who, png(4, 4)).await)
}

/// How the image is answered; its display copy must be answered the same way.
async fn served(app: &TestApp, media: &str) -> u16 {
    let image = app.client.get(app.url(&format!("/objects/{media}"))).send().await.unwrap().status().as_u16();
    let copy = app.client.get(app.url(&format!("/objects/{media}/640"))).send().await.unwrap().status().as_u16();
    assert_eq!(image, copy, "{media} and its display copy");
    image
}

async fn images_let_go_of_are_removed_after_a_day_and_used_ones_kept(app: TestApp) {
    let ada = app.member("ada").await;
    let in_deleted_post = image(&app, &ada).await;
    let in_live_post = image(&app, &ada).await;
    let old_avatar = image(&app, &ada).await;
    let avatar = image(&app, &ada).await;
    let header = image(&app, &ada).await;
    let (status, doomed) = post(
        &app,
        &ada,
        "/api/posts",
        json!({ "content": "Soon gone", "imageUrls": [format!("/objects/{in_deleted_post}")] }),
    )
    .await;
    assert_eq!(status, 201, "{doomed}");
    let (status, _) = post(
        &app,
        &ada,
        "/api/posts",
        json!({ "content": "Here to stay", "imageUrls": [format!("/objects/{in_live_post}")] }),
    )
    .await;
    assert_eq!(status, 201);
    for (path, media) in
        [("/api/profile-images", &old_avatar), ("/api/profile-images", &avatar), ("/api/header-images", &header)]
    {
        let (status, body) = put(&app, &ada, path, Some(json!({ "imageURL": format!("/objects/{media}") }))).await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, _) = delete(&app, &ada, &format!("/api/posts/{}", id(&doomed))).await;
    assert_eq!(status, 204);

    app.clock.advance(Duration::from_secs(23 * 3600));
    assert_eq!(
        murmur::media::cleanup_orphans(&app.state.db, &app.state.media, app.clock.now()).await.unwrap(),
        0,
        "not yet a day old"
    );
    app.clock.advance(Duration::from_secs(2 * 3600));
    assert_eq!(murmur::media::cleanup_orphans(&app.state.db, &app.state.media, app.clock.now()).await.unwrap(), 2);

    assert_eq!((served(&app, &in_deleted_post).await, served(&app, &old_avatar).await), (404, 404));
    for kept in [&in_live_post, &avatar, &header] {
        assert_eq!(served(&app, kept).await, 200, "{kept} is still in use");
    }
    let rows: i64 =
        sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM media").fetch_one(&app.state.db.read).await.unwrap();
    assert_eq!(rows, 3);
    assert_eq!(
        murmur::media::cleanup_orphans(&app.state.db, &app.state.media, app.clock.now()).await.unwrap(),
        0,
        "nothing more to remove"
    );
}

both_databases!(images_let_go_of_are_removed_after_a_day_and_used_ones_kept);
