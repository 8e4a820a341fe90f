//! The writes of posts: posting, replying, reposting, undoing a repost, deleting, liking and
//! voting, each one transaction with its counters, media claims and notifications, and the
//! feed's rule (`timelines::changes`) taken first, then the block rule (`visibility::ensure_can_interact`). The routes parse the request and answer; the
//! transactions are here.

use sqlx::{AnyConnection, Connection};

use super::domain::{
    ContentWarning, EDIT_WINDOW, ImageDescription, KeyedRequest, MAX_PINS, PollDuration, PollOptions, PostContent,
};
use super::entities;
use super::store::{self, Counter, NewPost, PostRef, TakenDownBy};
use crate::media::{self, MediaStore};
use crate::notifications::{self, Kind};
use crate::timelines::FanOutQueue;
use crate::timelines::changes::{self, MemberWrite};
use murmur_core::clock::{Clock, Millis};
use murmur_core::db::{Db, PoolConnection};
use murmur_core::error::{Error, Result};
use murmur_core::rate_limit::{self, MemberLimit};

/// What the writes of posts use of the application; made per request, cheap.
pub struct PostWrites<'a> {
    pub db: &'a Db,
    /// A post's images.
    pub media: &'a MediaStore,
    /// Woken after a post whose followers are reached in chunks.
    pub fan_out: &'a FanOutQueue,
    /// Woken after a post whose link's card is to be fetched (`link_cards`).
    pub link_cards: &'a murmur_core::wake::Wake,
    pub clock: &'a Clock,
}

/// A post or reply as its author wrote it, parsed.
pub struct Draft {
    pub content: PostContent,
    /// Its content warning, if any (the web app's composer starts a reply with its parent's).
    pub content_warning: Option<ContentWarning>,
    pub images: Vec<DraftImage>,
    pub poll: Option<PollOptions>,
    pub duration: PollDuration,
    /// Its poll takes several options from each voter (Mastodon's `multiple`).
    pub poll_multiple: bool,
    pub reply_to_id: Option<i64>,
    /// The post it quotes (a repost: its original), shown inside its card.
    pub quote_of_id: Option<i64>,
    /// The app it is written from (Mastodon client API); None in Murmur's own web app.
    pub app_id: Option<i64>,
}

/// An image of a draft: the upload's URL as sent, and its description.
pub struct DraftImage {
    pub url: String,
    pub alt: Option<ImageDescription>,
}

impl Draft {
    fn image_urls(&self) -> Vec<String> {
        self.images.iter().map(|image| image.url.clone()).collect()
    }
}

pub const ALREADY_REPOSTED: &str = "Already reposted";
pub const KEY_REUSED: &str =
    "This Idempotency-Key was used for a different request: send a new key with a new request.";
pub const KEY_POST_GONE: &str = "The post made with this Idempotency-Key was deleted.";
const KEY_IN_USE: &str = "A post with this Idempotency-Key is being made; try again";

/// What a retry with a key already used answers (the IETF Idempotency-Key draft): the post its
/// request made, when it is that request again; 422 for another request; 409 while its post is
/// being made or once it is gone. Keys taken before keys kept their request answer their post.
fn answer_retry(used: &store::KeyUse, request: &KeyedRequest) -> Result<i64> {
    let same_request = match (&used.endpoint, &used.body_hash) {
        (Some(endpoint), Some(body_hash)) => endpoint == request.endpoint && *body_hash == request.body_hash,
        _ => true,
    };
    if !same_request {
        return Err(Error::unprocessable(KEY_REUSED));
    }
    match used.post_id {
        Some(_) if used.post_deleted => Err(Error::conflict(KEY_POST_GONE)),
        Some(post) => Ok(post),
        // Named once its post exists, in the same transaction: a committed key without one
        // lost its post (a repost undone).
        None => Err(Error::conflict(KEY_POST_GONE)),
    }
}

impl PostWrites<'_> {
    /// Counts one post (or repost) against the member's allowance; 429 once it is spent.
    /// Answers the writer's connection for the post (`rate_limit::count_then_take_writer`).
    async fn posting_allowed(&self, member: i64) -> Result<PoolConnection> {
        let message = "You are posting too fast. Please wait a minute.";
        rate_limit::count_member_then_take_writer(self.db, MemberLimit::Post, member, self.clock.now(), message).await
    }

    /// The post `member` already made with this keyed request, if any: a retry answers it.
    async fn made_with(&self, member: i64, request: Option<&KeyedRequest>) -> Result<Option<i64>> {
        let Some(request) = request else { return Ok(None) };
        let used = store::key_use(&self.db.read, member, request.key(), self.clock.now()).await?;
        used.map(|used| answer_retry(&used, request)).transpose()
    }

    /// Takes the request's key first in the post's transaction. When another request took it
    /// meanwhile (PostgreSQL: it waited for that one to commit), answers that request's post,
    /// and this transaction is to be dropped before it wrote anything.
    async fn take(&self, tx: &mut AnyConnection, member: i64, request: Option<&KeyedRequest>) -> Result<Option<i64>> {
        let Some(request) = request else { return Ok(None) };
        if store::take_key(tx, member, request, self.clock.now()).await? {
            return Ok(None);
        }
        // In this transaction: the request that holds the key has committed (or this one would
        // not have come back), and a second connection could wait behind requests like this one.
        let used = store::key_use(&mut *tx, member, request.key(), self.clock.now())
            .await?
            .ok_or_else(|| Error::conflict(KEY_IN_USE))?;
        answer_retry(&used, request).map(Some)
    }

    /// Writes a post or reply with its images, poll, mentions and the reply's notification;
    /// answers its id. With a `key` the member already made a post with, answers that post.
    pub async fn post(&self, author: i64, draft: &Draft, key: Option<&KeyedRequest>) -> Result<i64> {
        draft.content.ensure_post_has(draft.images.len())?;
        if let Some(made) = self.made_with(author, key).await? {
            return Ok(made);
        }
        let writer = self.posting_allowed(author).await?;
        // Bucket uploads are fetched and checked with the writer let go, so no write waits on
        // the bucket; the post then takes its turn at the writer again.
        let image_urls = draft.image_urls();
        let mut writer = if image_urls.is_empty() {
            writer
        } else {
            drop(writer);
            media::prepare(self.db, self.media, author, &image_urls).await?;
            self.db.write.acquire().await?
        };
        let now = self.clock.now();
        let mut tx = writer.begin().await?;
        if let Some(made) = self.take(&mut tx, author, key).await? {
            return Ok(made);
        }
        // A reply to a repost answers the original (reposts have no threads of their own).
        let parent: Option<PostRef> = match draft.reply_to_id {
            Some(id) => Some(
                store::live_original(&mut tx, id)
                    .await?
                    .ok_or_else(|| Error::bad_request("replyToId must name an existing post"))?,
            ),
            None => None,
        };
        // A reply changes the count of a post that may be on the author's own Friends page.
        let changing = changes::member_changed(&mut tx, author).await?;
        if let Some(parent) = &parent {
            crate::visibility::ensure_can_interact(&mut tx, author, parent.author_id).await?;
        }
        let quoted = match draft.quote_of_id {
            Some(id) => Some(quotable(&mut tx, author, id).await?),
            None => None,
        };
        let media_ids = media::claim(self.media, &mut tx, author, &image_urls, now).await?;
        // `claim` answers one id per URL, in order: each keeps its own description.
        let images: Vec<store::NewImage> = media_ids
            .iter()
            .zip(&draft.images)
            .map(|(media_id, image)| store::NewImage {
                media_id,
                alt: image.alt.as_ref().map(ImageDescription::as_str),
            })
            .collect();
        let content = draft.content.as_str();
        let text = WrittenText::read(&mut tx, content).await?;
        let new = NewPost {
            author_id: author,
            content,
            spoiler_text: draft.content_warning.as_ref().map(ContentWarning::as_str),
            reply_to_id: parent.as_ref().map(|p| p.id),
            quote_of_id: quoted.as_ref().map(|q| q.id),
            poll: draft.poll.as_ref().map(|p| (p.as_slice(), now + draft.duration.as_millis())),
            poll_multiple: draft.poll.is_some() && draft.poll_multiple,
            images: &images,
            entities: &text.entities,
            app_id: draft.app_id,
            now,
        };
        let id = store::insert_post(&mut tx, &new).await?;
        let card_wanted = crate::link_cards::attach(&mut tx, id, entities::first_link(&text.entities), now).await?;
        if let Some(key) = key {
            store::keep_key(&mut tx, author, key.key(), id).await?;
        }
        // Replies are read in threads, not in the Friends feed.
        let after_commit = match parent {
            None => Some(changing.published(&mut tx, id).await?),
            Some(_) => None,
        };
        if let Some(parent) = &parent {
            if !store::bump(&mut tx, parent.id, Counter::Replies, 1).await? {
                return Err(Error::bad_request("replyToId must name an existing post"));
            }
            notifications::notify(&mut tx, parent.author_id, author, Kind::Reply, id, now).await?;
        }
        if let Some(quoted) = &quoted {
            notifications::notify(&mut tx, quoted.author_id, author, Kind::Quote, id, now).await?;
        }
        let told = parent.as_ref().map(|p| p.author_id);
        text.record(&mut tx, Written { post: id, author, at: now, told }, now).await?;
        // A new post (not a reply) also reaches its tags' followers; an edit adding a tag does
        // not (followed tags bring new posts, as on Mastodon).
        let after_commit = match after_commit {
            Some(published) if !text.hashtags.is_empty() => Some(published.and(changing.tagged(&mut tx, id).await?)),
            other => other,
        };
        tx.commit().await?;
        if let Some(after_commit) = after_commit {
            after_commit.run(self.fan_out);
        }
        if card_wanted {
            self.link_cards.wake();
        }
        Ok(id)
    }

    /// The author edits post `id`'s text and content warning (`warning`: None keeps the one it
    /// has, `Some(None)` takes it away), on a post without a poll keeps some of its images, and
    /// corrects the descriptions of those it keeps (`descriptions`: image URL and its description
    /// from now on; an image not named keeps its own), within `EDIT_WINDOW` of posting, while its
    /// poll has no votes. Its earlier text, warning and images go into its history; its tags and
    /// mentions follow the new text (a new mention notifies, a removed one is not taken back).
    /// Answers the post's id.
    pub async fn edit(
        &self,
        author: i64,
        id: i64,
        content: &PostContent,
        warning: Option<Option<&ContentWarning>>,
        kept_images: Option<&[String]>,
        descriptions: &[(String, Option<ImageDescription>)],
    ) -> Result<i64> {
        let mut writer = rate_limit::count_member_then_take_writer(
            self.db,
            MemberLimit::Edit,
            author,
            self.clock.now(),
            "You are editing too fast. Please wait a minute.",
        )
        .await?;
        let now = self.clock.now();
        let mut tx = writer.begin().await?;
        let post = store::find_ref(&mut tx, id)
            .await?
            .filter(|p| p.deleted_at.is_none())
            .ok_or_else(|| Error::not_found("Post not found"))?;
        if post.author_id != author {
            return Err(Error::forbidden("You can only edit your own posts"));
        }
        if post.repost_of_id.is_some() {
            return Err(Error::bad_request("A repost cannot be edited"));
        }
        // The author's kept Friends pages show the new text at once; others' within their
        // pages' keeping time, as a deletion (`feeds::cache`).
        changes::member_changed(&mut tx, author).await?;
        // Under the post's row lock a vote either committed before (and is counted below) or
        // waits for this edit (`store::lock_live`).
        if !store::lock_live(&mut tx, id).await? {
            return Err(Error::not_found("Post not found"));
        }
        let current = store::edited_post(&mut tx, id).await?.ok_or_else(|| Error::not_found("Post not found"))?;
        if now >= current.created_at + EDIT_WINDOW || current.votes > 0 {
            return Err(Error::conflict("This post can no longer be edited"));
        }
        let kept = kept_media(&current, kept_images)?;
        let alts = described_media(&current, &kept, descriptions)?;
        content.ensure_post_has(kept.len())?;
        let spoiler_text = match warning {
            Some(warning) => warning.map(ContentWarning::as_str),
            None => current.spoiler_text.as_deref(),
        };
        if content.as_str() == current.content
            && spoiler_text == current.spoiler_text.as_deref()
            && kept == current.images
            && alts.is_empty()
        {
            return Ok(id);
        }
        let text = WrittenText::read(&mut tx, content.as_str()).await?;
        let edit = store::Edit {
            post_id: id,
            content: content.as_str(),
            spoiler_text,
            entities: &text.entities,
            kept_images: &kept,
            alts: &alts,
            now,
        };
        store::edit(&mut tx, &edit).await?;
        crate::live::note(crate::live::Change::Edited { author, post: id });
        crate::posts::tags::untag_post(&mut tx, id).await?;
        let told = match post.reply_to_id {
            Some(parent) => store::find_ref(&mut tx, parent).await?.map(|p| p.author_id),
            None => None,
        };
        text.record(&mut tx, Written { post: id, author, at: current.created_at, told }, now).await?;
        // The card follows the new first link (one its author removed stays removed).
        let card_wanted = crate::link_cards::attach(&mut tx, id, entities::first_link(&text.entities), now).await?;
        tx.commit().await?;
        if card_wanted {
            self.link_cards.wake();
        }
        Ok(id)
    }

    /// The author of post `id` lets others quote it, or not (`allowed`); the quotes already
    /// made stay. Answers the post's id.
    pub async fn set_quoting(&self, author: i64, id: i64, allowed: bool) -> Result<i64> {
        let mut tx = self.db.write.begin().await?;
        let post = store::find_ref(&mut tx, id)
            .await?
            .filter(|p| p.deleted_at.is_none() && p.repost_of_id.is_none())
            .ok_or_else(|| Error::not_found("Post not found"))?;
        if post.author_id != author {
            return Err(Error::forbidden("You can only change quoting of your own posts"));
        }
        // The card's Quote shows on the author's own Friends page.
        changes::member_changed(&mut tx, author).await?;
        store::set_quotes_allowed(&mut tx, id, allowed).await?;
        tx.commit().await?;
        Ok(id)
    }

    /// The author of post `id` detaches it from post `quote`, which quotes it: the quote then
    /// shows "Removed by the author" in its place. Twice changes nothing; the quote's author is
    /// not told. 404 when `id` is not the member's own live post or `quote` does not quote it.
    pub async fn detach_quote(&self, member: i64, id: i64, quote: i64) -> Result<()> {
        let mut tx = self.db.write.begin().await?;
        let post = store::find_ref(&mut tx, id)
            .await?
            .filter(|p| p.author_id == member && p.deleted_at.is_none())
            .ok_or_else(|| Error::not_found("Post not found"))?;
        changes::member_changed(&mut tx, member).await?;
        if !store::detach_quote(&mut tx, post.id, quote, self.clock.now()).await? {
            return Err(Error::not_found("That post does not quote this one"));
        }
        tx.commit().await?;
        Ok(())
    }

    /// The member bookmarks post `id` (a repost: its original); twice changes nothing. Nobody
    /// is told. Answers the id of the post bookmarked.
    pub async fn bookmark(&self, member: i64, id: i64) -> Result<i64> {
        let now = self.clock.now();
        let mut writer = rate_limit::count_member_then_take_writer(
            self.db,
            MemberLimit::Bookmark,
            member,
            now,
            "You are bookmarking too fast. Please wait a minute.",
        )
        .await?;
        let mut tx = writer.begin().await?;
        // The card's mark is on the member's own Friends page.
        changes::member_changed(&mut tx, member).await?;
        let post = store::live_original(&mut tx, id).await?.ok_or_else(|| Error::not_found("Post not found"))?;
        store::bookmark(&mut tx, member, post.id, now).await?;
        tx.commit().await?;
        Ok(post.id)
    }

    /// The member pins their own post `id` (not a repost) to their profile, shown first there;
    /// twice changes nothing. At most `MAX_PINS` at once. 404 for a post that is not their own
    /// live post. Answers the post's id.
    pub async fn pin(&self, member: i64, id: i64) -> Result<i64> {
        let mut tx = self.db.write.begin().await?;
        let post = own_post(&mut tx, member, id).await?;
        // The member's writes take turns here (their row's lock on PostgreSQL, the writer on
        // SQLite), so two pins at once cannot both take the last place.
        changes::member_changed(&mut tx, member).await?;
        let pinned_before = store::pin_count(&mut tx, member).await?;
        // A new pin past the limit is refused, and the transaction dropped with it.
        if store::pin(&mut tx, member, post.id, self.clock.now()).await? && pinned_before >= MAX_PINS {
            return Err(Error::bad_request(format!("You can pin at most {MAX_PINS} posts: unpin one first")));
        }
        tx.commit().await?;
        Ok(post.id)
    }

    /// The member unpins their post `id`; not pinned changes nothing. Answers the post's id.
    pub async fn unpin(&self, member: i64, id: i64) -> Result<i64> {
        let mut tx = self.db.write.begin().await?;
        let post = own_post(&mut tx, member, id).await?;
        changes::member_changed(&mut tx, member).await?;
        store::unpin(&mut tx, member, post.id).await?;
        tx.commit().await?;
        Ok(post.id)
    }

    /// Takes the member's bookmark of post `id` (a repost: its original) away; answers the id
    /// of the post.
    pub async fn unbookmark(&self, member: i64, id: i64) -> Result<i64> {
        let mut tx = self.db.write.begin().await?;
        changes::member_changed(&mut tx, member).await?;
        let post = store::live_original(&mut tx, id).await?.ok_or_else(|| Error::not_found("Post not found"))?;
        store::unbookmark(&mut tx, member, post.id).await?;
        tx.commit().await?;
        Ok(post.id)
    }

    /// Reposts post `target` (a repost: its original) once; answers the repost's id.
    pub async fn repost(&self, member: i64, target: i64, key: Option<&KeyedRequest>) -> Result<i64> {
        if let Some(made) = self.made_with(member, key).await? {
            return Ok(made);
        }
        let mut writer = self.posting_allowed(member).await?;
        let now = self.clock.now();
        let mut tx = writer.begin().await?;
        if let Some(made) = self.take(&mut tx, member, key).await? {
            return Ok(made);
        }
        let original =
            store::live_original(&mut tx, target).await?.ok_or_else(|| Error::not_found("Post not found"))?;
        let changing = changes::member_changed(&mut tx, member).await?;
        crate::visibility::ensure_can_interact(&mut tx, member, original.author_id).await?;
        let id = store::insert_repost(&mut tx, member, original.id, now)
            .await?
            .ok_or_else(|| Error::conflict(ALREADY_REPOSTED))?;
        if let Some(key) = key {
            store::keep_key(&mut tx, member, key.key(), id).await?;
        }
        let after_commit = changing.published(&mut tx, id).await?;
        if !store::bump(&mut tx, original.id, Counter::Reposts, 1).await? {
            return Err(Error::not_found("Post not found"));
        }
        notifications::notify(&mut tx, original.author_id, member, Kind::Repost, original.id, now).await?;
        tx.commit().await?;
        after_commit.run(self.fan_out);
        Ok(id)
    }

    /// Deletes one of the member's posts: a repost for good, any other post softly (its
    /// replies stay), with the notifications about it and its parent's count.
    pub async fn delete(&self, member: i64, id: i64) -> Result<()> {
        let now = self.clock.now();
        let mut tx = self.db.write.begin().await?;
        let post = store::find_ref(&mut tx, id)
            .await?
            .filter(|p| p.deleted_at.is_none())
            .ok_or_else(|| Error::not_found("Post not found"))?;
        if post.author_id != member {
            return Err(Error::forbidden("You can only delete your own posts"));
        }
        // Before the post leaves the timelines: a follow copying it waits, then sees it deleted.
        let changing = changes::member_changed(&mut tx, member).await?;
        match post.repost_of_id {
            Some(original) => undo_repost(&mut tx, member, original).await?,
            None => take_down(&mut tx, &changing, &post, now, TakenDownBy::Author).await?,
        }
        tx.commit().await?;
        Ok(())
    }

    /// Undoes the member's repost of post `id` (or of its original, when `id` is a repost).
    pub async fn unrepost(&self, member: i64, id: i64) -> Result<()> {
        let mut tx = self.db.write.begin().await?;
        let original = store::live_original(&mut tx, id).await?.ok_or_else(|| Error::not_found("Post not found"))?;
        changes::member_changed(&mut tx, member).await?;
        undo_repost(&mut tx, member, original.id).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Likes post `id` (a repost: its original); answers the id of the post liked.
    pub async fn like(&self, member: i64, id: i64) -> Result<i64> {
        let now = self.clock.now();
        let mut writer = rate_limit::count_member_then_take_writer(
            self.db,
            MemberLimit::Like,
            member,
            now,
            "You are liking too fast. Please wait a minute.",
        )
        .await?;
        let mut tx = writer.begin().await?;
        changes::member_changed(&mut tx, member).await?;
        let post = store::like(&mut tx, self.db.backend, member, id, now)
            .await?
            .ok_or_else(|| Error::not_found("Post not found"))?;
        tx.commit().await?;
        Ok(post)
    }

    /// Takes back the member's like of post `id`; answers the id of the post.
    pub async fn unlike(&self, member: i64, id: i64) -> Result<i64> {
        let mut tx = self.db.write.begin().await?;
        changes::member_changed(&mut tx, member).await?;
        let post = store::unlike(&mut tx, self.db.backend, member, id)
            .await?
            .ok_or_else(|| Error::not_found("Post not found"))?;
        tx.commit().await?;
        Ok(post)
    }

    /// The member votes in post `id`'s poll, once, while it is open: one of its options, or on
    /// a multiple-choice poll one or more; answers the id of the post voted in.
    pub async fn vote(&self, member: i64, id: i64, options: &[String]) -> Result<i64> {
        let now = self.clock.now();
        let mut tx = self.db.write.begin().await?;
        changes::member_changed(&mut tx, member).await?;
        let post = store::live_original(&mut tx, id).await?.ok_or_else(|| Error::not_found("Post not found"))?;
        if !store::lock_live(&mut tx, post.id).await? {
            return Err(Error::not_found("Post not found"));
        }
        crate::visibility::ensure_can_interact(&mut tx, member, post.author_id).await?;
        let expires_at = post.poll_expires_at.ok_or_else(|| Error::bad_request("This post has no poll"))?;
        if now >= expires_at {
            return Err(Error::bad_request("This poll has ended"));
        }
        if options.is_empty() {
            return Err(Error::bad_request("Choose an option to vote"));
        }
        if options.len() > 1 && !store::poll_is_multiple(&mut tx, post.id).await? {
            return Err(Error::bad_request("This poll takes one choice"));
        }
        let mut positions = Vec::with_capacity(options.len());
        for option in options {
            let position = store::poll_position(&mut tx, post.id, option)
                .await?
                .ok_or_else(|| Error::bad_request("That option is not in this poll"))?;
            if positions.contains(&position) {
                return Err(Error::bad_request("Each option can be chosen once"));
            }
            positions.push(position);
        }
        // Under the post's row lock: a second vote of the member waits here, then sees the first.
        if store::has_voted(&mut tx, post.id, member).await? {
            return Err(Error::conflict("You have already voted"));
        }
        for position in positions {
            store::insert_vote(&mut tx, post.id, member, position, now).await?;
        }
        tx.commit().await?;
        Ok(post.id)
    }
}

/// Member `member`'s own live post `id` (not a repost): 404 for any other, as for a post that
/// is not there.
async fn own_post(tx: &mut AnyConnection, member: i64, id: i64) -> Result<PostRef> {
    store::find_ref(&mut *tx, id)
        .await?
        .filter(|p| p.author_id == member && p.deleted_at.is_none() && p.repost_of_id.is_none())
        .ok_or_else(|| Error::not_found("Post not found"))
}

/// The post `member` quotes when they name post `id` (a repost: its original): 404 when it is
/// gone or hidden from them, 403 when they and its author blocked each other or its author
/// turned quoting off (an author may always quote their own post).
async fn quotable(tx: &mut AnyConnection, member: i64, id: i64) -> Result<PostRef> {
    let quoted = store::live_original(&mut *tx, id).await?.ok_or_else(|| Error::not_found("Post not found"))?;
    crate::visibility::ensure_can_interact(&mut *tx, member, quoted.author_id).await?;
    if store::author_hidden(&mut *tx, member, quoted.author_id).await? {
        return Err(Error::not_found("Post not found"));
    }
    if quoted.author_id != member && !store::quotes_allowed(&mut *tx, quoted.id).await? {
        return Err(Error::forbidden("The author turned off quoting of this post"));
    }
    Ok(quoted)
}

/// The images an edit keeps (media ids, in the order they show): all of them when the request
/// names none, else the ones it names, which must be among the post's (an edit removes images,
/// never adds them; a post with a poll keeps its images).
fn kept_media(current: &store::EditedPost, kept_urls: Option<&[String]>) -> Result<Vec<String>> {
    let Some(urls) = kept_urls else {
        return Ok(current.images.clone());
    };
    let kept: Vec<String> = current.images.iter().filter(|m| urls.contains(&media::object_path(m))).cloned().collect();
    let named_unknown = urls.iter().any(|url| !current.images.iter().any(|m| media::object_path(m) == *url));
    if named_unknown || urls.len() != kept.len() {
        return Err(Error::bad_request("An edit can only keep some of the post's own images"));
    }
    if current.has_poll && kept.len() != current.images.len() {
        return Err(Error::bad_request("A post with a poll keeps its images"));
    }
    Ok(kept)
}

/// The changed descriptions of the images an edit keeps (media id, description from now on),
/// from `descriptions` (image URL, description); 400 for an image the post does not keep.
fn described_media(
    current: &store::EditedPost,
    kept: &[String],
    descriptions: &[(String, Option<ImageDescription>)],
) -> Result<Vec<(String, Option<String>)>> {
    let mut changed = Vec::new();
    for (url, description) in descriptions {
        let media_id = kept.iter().find(|m| media::object_path(m) == *url).ok_or_else(|| {
            Error::bad_request("An image description can only be for one of the images the post keeps")
        })?;
        let description = description.as_ref().map(|d| d.as_str().to_string());
        let position = current.images.iter().position(|m| m == media_id);
        let now = position.and_then(|p| current.alts[p].clone());
        if now != description && !changed.iter().any(|(m, _): &(String, Option<String>)| m == media_id) {
            changed.push((media_id.clone(), description));
        }
    }
    Ok(changed)
}

/// A post's text read as it is written (`entities::parse`), with the members it mentions: the
/// one reading that posting and editing share.
struct WrittenText {
    entities: Vec<entities::Entity>,
    hashtags: Vec<entities::Hashtag>,
    /// The mentioned members who exist: id and username.
    mentioned: Vec<(i64, String)>,
}

/// Which post a text was written for.
struct Written {
    post: i64,
    author: i64,
    /// When the post was written: its tags count from then.
    at: Millis,
    /// A member already told of this post (a reply's parent's author), not told again of a mention.
    told: Option<i64>,
}

impl WrittenText {
    async fn read(tx: &mut AnyConnection, content: &str) -> Result<WrittenText> {
        let parsed = entities::parse(content);
        let mentioned = store::members_by_username(&mut *tx, &parsed.mentions()).await?;
        let members = mentioned.iter().map(|(id, username)| (username.clone(), *id)).collect();
        Ok(WrittenText { entities: parsed.entities(content, &members), hashtags: parsed.hashtags(), mentioned })
    }

    /// The post's tags and its mentions' notifications (each member told once of a post,
    /// `notifications::notify`), in the post's transaction.
    async fn record(&self, tx: &mut AnyConnection, written: Written, now: Millis) -> Result<()> {
        crate::posts::tags::tag_post(&mut *tx, written.post, written.author, &self.hashtags, written.at).await?;
        for &(member, _) in &self.mentioned {
            if written.told == Some(member) {
                continue;
            }
            notifications::notify(&mut *tx, member, written.author, Kind::Mention, written.post, now).await?;
        }
        Ok(())
    }
}

/// Takes a post (not a repost) out of everything members read, with its parent's reply count
/// and the notifications about it, and tells open streams: its author's delete and moderators'
/// removal alike. Call it after `changes::member_changed` of the post's author, in that
/// transaction; 404 when the post was deleted meanwhile.
pub async fn take_down(
    tx: &mut AnyConnection,
    changing: &MemberWrite,
    post: &PostRef,
    now: Millis,
    by: TakenDownBy,
) -> Result<()> {
    if !store::soft_delete(&mut *tx, post.id, now, by).await? {
        return Err(Error::not_found("Post not found"));
    }
    let removed = by == TakenDownBy::Moderators;
    crate::live::note(crate::live::Change::Deleted { author: post.author_id, post: post.id, removed });
    changing.removed(&mut *tx, post.id).await?;
    crate::posts::tags::untag_post(&mut *tx, post.id).await?;
    notifications::store::remove_about_post(&mut *tx, post.id).await?;
    if let Some(parent) = post.reply_to_id {
        store::reply_removed(&mut *tx, parent).await?;
    }
    Ok(())
}

/// Removes `member`'s repost of `original` with its count and unread notification, and tells
/// open streams.
pub(crate) async fn undo_repost(tx: &mut AnyConnection, member: i64, original: i64) -> Result<()> {
    let repost = store::delete_repost(&mut *tx, member, original)
        .await?
        .ok_or_else(|| Error::not_found("You have not reposted this post"))?;
    crate::live::note(crate::live::Change::Deleted { author: member, post: repost, removed: false });
    store::bump(&mut *tx, original, Counter::Reposts, -1).await?;
    if let Some(original) = store::find_ref(&mut *tx, original).await? {
        notifications::withdraw(&mut *tx, original.author_id, member, Kind::Repost, original.id).await?;
    }
    Ok(())
}
