//! Trending: the tags more people use today than usual. People, not posts, are counted, so one
//! loud member cannot make a trend; members who joined less than a day ago and suspended
//! members are not counted. Computed in the background (`jobs`), by one process at a time, and
//! read as one indexed lookup (`store::trending`).

use murmur_core::clock::{DAY, Millis};
use murmur_core::db::Db;
use murmur_core::error::Result;

/// How many tags Trending keeps (the most the API answers).
pub const MAX_TRENDING: usize = 20;
/// A tag needs this many people using it in the last day to trend.
const MIN_PEOPLE: i64 = 3;

/// How one tag was used: in the last day, and on an average day of the week before.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Usage {
    pub tag_id: i64,
    /// Distinct members using it in the last 24 hours.
    pub people_today: i64,
    /// Posts using it in the last 24 hours.
    pub posts_today: i64,
    /// Over the 7 days before those 24 hours, the sum of each day's distinct members (a member
    /// using it every day counts 7 times, as they would on 7 days of Trending).
    pub people_days_before: i64,
}

/// How far a tag stands above its usual level: today's people against the daily average of the
/// week before, in standard deviations of a count with that average. None when it does not
/// trend: fewer than `MIN_PEOPLE` people, or not at least twice its usual level (a tag that is
/// always busy is not trending).
pub fn score(usage: &Usage) -> Option<f64> {
    let usual = usage.people_days_before as f64 / 7.0;
    let today = usage.people_today as f64;
    if usage.people_today < MIN_PEOPLE || today < 2.0 * usual {
        return None;
    }
    Some((today - usual) / (usual + 1.0).sqrt())
}

/// The trending tags of `usages`, best first, at most `MAX_TRENDING`; ties go to more people,
/// then to the older tag.
pub fn rank(usages: &[Usage]) -> Vec<Usage> {
    let mut scored: Vec<(f64, Usage)> = usages.iter().filter_map(|u| score(u).map(|s| (s, *u))).collect();
    scored.sort_by(|(a, x), (b, y)| {
        b.total_cmp(a).then(y.people_today.cmp(&x.people_today)).then(x.tag_id.cmp(&y.tag_id))
    });
    scored.into_iter().take(MAX_TRENDING).map(|(_, u)| u).collect()
}

/// Computes Trending at `now` and stores it: the uses of the last eight days are read on the
/// readers' pool, and only the ranked result is written, in one short transaction. Answers how
/// many tags trend.
pub async fn compute(db: &Db, now: Millis) -> Result<usize> {
    let today = now - DAY;
    let rows: Vec<(i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT pt.tag_id, \
                COUNT(DISTINCT CASE WHEN pt.created_at >= $2 THEN pt.author_id END), \
                SUM(CASE WHEN pt.created_at >= $2 THEN 1 ELSE 0 END), \
                COUNT(DISTINCT CASE WHEN pt.created_at < $2 THEN pt.author_id * 8 + ($2 - 1 - pt.created_at) / $5 END) \
         FROM post_tags pt JOIN users u ON u.id = pt.author_id \
         WHERE pt.created_at >= $1 AND pt.created_at <= $3 \
           AND u.created_at <= $2 AND u.suspended_until IS NULL \
         GROUP BY pt.tag_id \
         HAVING COUNT(DISTINCT CASE WHEN pt.created_at >= $2 THEN pt.author_id END) >= $4",
    )
    .bind(today - 7 * DAY)
    .bind(today)
    .bind(now)
    .bind(MIN_PEOPLE)
    .bind(DAY)
    .fetch_all(&db.read)
    .await?;
    let usages: Vec<Usage> = rows
        .into_iter()
        .map(|(tag_id, people_today, posts_today, people_days_before)| Usage {
            tag_id,
            people_today,
            posts_today,
            people_days_before,
        })
        .collect();
    let ranked = rank(&usages);
    let mut tx = db.write.begin().await?;
    sqlx::query("DELETE FROM trending_tags").execute(&mut *tx).await?;
    for (i, usage) in ranked.iter().enumerate() {
        sqlx::query(
            "INSERT INTO trending_tags (rank, tag_id, people_count, post_count, computed_at) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(i as i64 + 1)
        .bind(usage.tag_id)
        .bind(usage.people_today)
        .bind(usage.posts_today)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(ranked.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(tag_id: i64, people_today: i64, people_days_before: i64) -> Usage {
        Usage { tag_id, people_today, posts_today: people_today, people_days_before }
    }

    #[test]
    fn a_tag_needs_three_people_today() {
        assert_eq!(score(&usage(1, 2, 0)), None);
        assert!(score(&usage(1, 3, 0)).is_some());
    }

    #[test]
    fn a_tag_always_this_busy_is_not_trending() {
        // 70 people a day all week, 70 today.
        assert_eq!(score(&usage(1, 70, 490)), None);
        // Twice its usual level is.
        assert!(score(&usage(1, 140, 490)).is_some());
    }

    #[test]
    fn a_sudden_rise_beats_a_bigger_steady_tag() {
        let ranked = rank(&[usage(1, 200, 7 * 90), usage(2, 25, 0), usage(3, 4, 0)]);
        let order: Vec<i64> = ranked.iter().map(|u| u.tag_id).collect();
        assert_eq!(order, [2, 1, 3]);
    }

    #[test]
    fn trending_keeps_at_most_twenty() {
        let usages: Vec<Usage> = (1..=30).map(|i| usage(i, 3 + i, 0)).collect();
        let ranked = rank(&usages);
        assert_eq!(ranked.len(), MAX_TRENDING);
        assert_eq!(ranked[0].tag_id, 30);
    }
}
