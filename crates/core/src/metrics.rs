//! Metric names and the events Murmur records where things happen (counters, histograms,
//! gauges). They are no-ops until the server installs a Prometheus recorder
//! (`murmur_server::metrics`), so code below the HTTP layer records without knowing of it.

use std::time::Duration;

use metrics::{counter, gauge, histogram};

/// Describes every metric to the installed recorder: their one list of names and meanings.
pub fn describe() {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_counter!("murmur_http_requests_total", "HTTP requests answered, by route template, method and status");
    describe_histogram!("murmur_http_request_duration_seconds", Unit::Seconds, "Time to answer, by route template");
    describe_gauge!("murmur_db_pool_connections", "Database connections open in each pool, by state (idle, in_use)");
    describe_gauge!("murmur_db_pool_max_connections", "Most connections each pool may open");
    describe_histogram!(
        "murmur_db_writer_wait_seconds",
        Unit::Seconds,
        "Time a like, follow, post or other counted write waited for its writing connection (SQLite: the one writer)"
    );
    describe_gauge!(
        "murmur_write_requests_in_flight",
        "Member write requests being handled (on SQLite: queued for or holding the writer)"
    );
    describe_gauge!("murmur_fan_out_queue_posts", "Posts waiting to be copied to their followers' home timelines");
    describe_gauge!("murmur_fan_out_lag_seconds", "Age of the oldest post waiting for fan-out (0 when none)");
    describe_gauge!("murmur_sessions_open", "Login sessions that have not expired");
    describe_gauge!(
        "murmur_job_last_success_timestamp_seconds",
        "When each background job last finished a round without error (Unix time)"
    );
    describe_counter!(
        "murmur_emails_total",
        "E-mails handed to the mail server or the outbox, by outcome (sent, failed)"
    );
    describe_counter!("murmur_image_checks_total", "Uploaded images checked, by outcome (accepted, refused, busy)");
    describe_counter!("murmur_rate_limit_refusals_total", "Requests refused by a rate limit, by kind");
    describe_counter!(
        "murmur_db_moment_old_reads_total",
        "Reads that may be a moment old, by where they went (replica, primary) when replicas are set"
    );
    describe_gauge!("murmur_db_replica_in_use", "Whether reads may go to each replica (1), or it is set aside (0)");
    describe_gauge!(
        "murmur_db_replica_lag_seconds",
        "How long ago the primary was where each replica has replayed to (0 when caught up)"
    );
    describe_counter!(
        "murmur_push_deliveries_total",
        "Web Push messages handled, by outcome (sent, retry, given-up, gone, refused, dropped)"
    );
}

/// The time now as Prometheus expects timestamps: Unix seconds.
fn unix_now() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
}

/// How long a counted write waited for its writing connection (`rate_limit::count_then_take_writer`).
pub fn writer_wait(waited: Duration) {
    histogram!("murmur_db_writer_wait_seconds").record(waited.as_secs_f64());
}

/// A read that may be a moment old went to a `replica` or, none having replayed far enough or
/// being in use, to the `primary` (`Db::a_moment_old`).
pub fn moment_old_read(target: &'static str) {
    counter!("murmur_db_moment_old_reads_total", "target" => target).increment(1);
}

/// A live stream (`GET /api/events`) opened.
pub fn live_stream_opened() {
    counter!("murmur_live_streams_opened_total").increment(1);
}

/// The server closed a live stream: `session-ended`, or `slow-or-gone` (the client stopped
/// reading or went away).
pub fn live_stream_closed(reason: &'static str) {
    counter!("murmur_live_streams_closed_total", "reason" => reason).increment(1);
}

/// A background job finished a round without error.
pub fn job_succeeded(job: &'static str) {
    gauge!("murmur_job_last_success_timestamp_seconds", "job" => job).set(unix_now());
}

/// An e-mail was sent (or filed in the outbox), or could not be.
pub fn email(sent: bool) {
    counter!("murmur_emails_total", "outcome" => if sent { "sent" } else { "failed" }).increment(1);
}

/// An uploaded image was checked: `accepted`, `refused` (not an image we take) or `busy`
/// (no room to check it now: 503).
pub fn image_check(outcome: &'static str) {
    counter!("murmur_image_checks_total", "outcome" => outcome).increment(1);
}

/// A push was handled: `sent`, `retry` (429, 5xx, the network), `given-up` (too many tries),
/// `gone` (the subscription ended), `refused` (another 4xx) or `dropped` (nothing left to send).
pub fn push(outcome: &'static str) {
    counter!("murmur_push_deliveries_total", "outcome" => outcome).increment(1);
}

/// A rate limit refused a request. `key` is the limit's key (`like:42`, `link:ip:203.0.113.0`):
/// its kind is the leading word, with the next one when that names what is counted (`ip`,
/// `email`, `user`), never the member or address itself.
pub fn rate_limit_refusal(key: &str) {
    counter!("murmur_rate_limit_refusals_total", "kind" => rate_limit_kind(key)).increment(1);
}

fn rate_limit_kind(key: &str) -> String {
    let mut words = key.split(':');
    let first = words.next().unwrap_or_default();
    match words.next() {
        Some(second) if words.next().is_some() && second.bytes().all(|b| b.is_ascii_lowercase()) => {
            format!("{first}:{second}")
        }
        _ => first.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::rate_limit_kind;

    #[test]
    fn a_rate_limits_kind_never_names_the_member_or_the_address() {
        assert_eq!(rate_limit_kind("like:42"), "like");
        assert_eq!(rate_limit_kind("media-upload:7"), "media-upload");
        assert_eq!(rate_limit_kind("link:ip:203.0.113.0"), "link:ip");
        assert_eq!(rate_limit_kind("link:ip:2001:db8::"), "link:ip");
        assert_eq!(rate_limit_kind("link:email:ab12"), "link:email");
        assert_eq!(rate_limit_kind("invite:user:9"), "invite:user");
    }
}
