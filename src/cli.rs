//! The command line: `murmur serve`, `murmur migrate` and the operator commands.

use std::net::SocketAddr;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use murmur_core::config::{Config, ServerArgs, StorageArgs};
use murmur_core::db::Db;
use murmur_server::app::{Application, shutdown_signal};

#[derive(Parser, Debug)]
#[command(name = "murmur", version, about = "Murmur: the invite-only human network")]
pub struct Cli {
    /// How log lines are written to standard error: `text` for people, `json` (one object a
    /// line) for log shippers.
    #[arg(long, global = true, env = "MURMUR_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Serve the web app and the API.
    Serve {
        /// Address to listen on.
        #[arg(long, env = "MURMUR_ADDR", default_value = "127.0.0.1:8080")]
        addr: SocketAddr,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Apply database migrations and exit.
    Migrate {
        /// Only print the migrations that would run.
        #[arg(long)]
        dry_run: bool,
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// Check the configuration and what the instance depends on (the database and its
    /// migrations, the object store, the mail server) without serving; prints what is wrong in
    /// plain words and exits non-zero if anything is. Run it before a restart.
    Check {
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Invite codes, for the operator of an instance.
    Invite {
        #[command(subcommand)]
        command: InviteCommand,
    },
    /// Members' roles (member, moderator, admin), for the operator of an instance.
    Role {
        #[command(subcommand)]
        command: RoleCommand,
    },
    /// The waitlist, for the operator of an instance.
    Waitlist {
        #[command(subcommand)]
        command: WaitlistCommand,
    },
    /// Write a consistent copy of the live SQLite database to a new file (PostgreSQL: use pg_dump).
    Backup {
        /// The file to write; must not exist yet.
        file: std::path::PathBuf,
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// Write every table of the database to a new file, in a format either backend imports
    /// (`import-db`): to move an instance between SQLite and PostgreSQL, or as a logical backup.
    ExportDb {
        /// The file to write; must not exist yet.
        file: std::path::PathBuf,
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// Fill an empty database with a file written by `export-db`, all or nothing, and compare
    /// each table's rows with the file's counts.
    ImportDb {
        /// The file `export-db` wrote.
        file: std::path::PathBuf,
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// Fill a fresh database with a made-up, realistic network (development and benchmarks).
    Seed {
        #[command(flatten)]
        options: crate::seed::Options,
        #[command(flatten)]
        storage: StorageArgs,
    },
}

#[derive(Subcommand, Debug)]
pub enum InviteCommand {
    /// Print fresh invite codes (valid 7 days), one per line.
    Create {
        /// How many codes.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
        count: u32,
        #[command(flatten)]
        storage: StorageArgs,
    },
}

#[derive(Subcommand, Debug)]
pub enum RoleCommand {
    /// Give a member a role: `member`, `moderator` (works the reports and acts on members) or
    /// `admin` (a moderator no moderator can act on).
    Set {
        /// The member's username (with or without the @).
        username: String,
        /// member, moderator or admin.
        role: murmur_domain::moderation::Role,
        #[command(flatten)]
        storage: StorageArgs,
    },
}

// The command line is parsed once, at start-up: a variant's size costs nothing worth boxing for.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
pub enum WaitlistCommand {
    /// List waiting addresses, oldest first.
    List {
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// E-mail an invite code to the oldest waiting addresses not yet invited.
    Invite {
        /// How many addresses to invite.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10000))]
        count: u32,
        #[command(flatten)]
        server: ServerArgs,
    },
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    init_tracing(cli.log_format);
    // `murmur serve` on SQLite: the runtime's threads (requests, and the readers' connections
    // opened from them) run below the writer (`db::lower_reader_priority`).
    let below_writer = matches!(&cli.command, Command::Serve { server, .. }
        if server.storage.database_url().starts_with("sqlite:"));
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .on_thread_start(move || {
            if below_writer {
                murmur_core::db::lower_reader_priority();
            }
        })
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: could not start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli.command)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn init_tracing(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("murmur=info,tower_http=info"));
    let logs = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _ = match format {
        // Colours only for a person at a terminal, not for a file or the journal.
        LogFormat::Text => logs.with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr())).try_init(),
        LogFormat::Json => logs.json().with_current_span(true).with_span_list(false).try_init(),
    };
}

async fn open_db(storage: &StorageArgs) -> anyhow::Result<Db> {
    std::fs::create_dir_all(&storage.data_dir)?;
    let db = Db::connect(&storage.database_url()).await?;
    db.migrate().await?;
    Ok(db)
}

pub async fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Serve { addr, server } => {
            // Each open event stream is a socket: the usual soft limit of 1,024 would refuse
            // connections long before the instance is busy (docs/live.md).
            match rlimit::increase_nofile_limit(u64::MAX) {
                Ok(limit) => tracing::info!(limit, "open files allowed"),
                Err(error) => tracing::warn!(%error, "the open-files limit could not be raised"),
            }
            let config = Config::from_args(&server, addr);
            let app = Application::build(config).await?;
            first_start_invite(&app).await?;
            tracing::info!(addr = %app.local_addr(), public_url = %app.state().config.public_url, "murmur is listening");
            app.run_until(shutdown_signal()).await
        }
        Command::Migrate { dry_run: true, storage } => {
            std::fs::create_dir_all(&storage.data_dir)?;
            let pending = Db::connect(&storage.database_url()).await?.pending_migrations().await?;
            if pending.is_empty() {
                println!("no migrations to run");
            }
            for migration in pending {
                println!("would run {migration}");
            }
            Ok(())
        }
        Command::Migrate { dry_run: false, storage } => {
            open_db(&storage).await?;
            println!("migrations applied");
            Ok(())
        }
        Command::Check { server } => check(&server).await,
        Command::Invite { command: InviteCommand::Create { count, storage } } => {
            let db = open_db(&storage).await?;
            let now = murmur_core::clock::Clock::default().now();
            for _ in 0..count {
                let (_, code) = murmur_domain::invites::insert_code(&db.write, None, now).await?;
                println!("{code}");
            }
            Ok(())
        }
        Command::Role { command: RoleCommand::Set { username, role, storage } } => {
            let db = open_db(&storage).await?;
            let done = murmur_domain::moderation::set_role(&db.write, &username, role).await;
            db.close().await;
            if !done? {
                anyhow::bail!("no member is called @{}", username.trim_start_matches('@'));
            }
            println!("@{} is now {} {}", username.trim_start_matches('@'), article(role), role.as_str());
            Ok(())
        }
        Command::Waitlist { command: WaitlistCommand::List { storage } } => {
            let db = open_db(&storage).await?;
            for entry in murmur_domain::waitlist::list(&db.read).await? {
                let invited = match entry.invited_at {
                    Some(at) => format!("invited {}", murmur_core::clock::to_rfc3339(at)),
                    None => "waiting".to_string(),
                };
                println!("{}\t{}\t{}", murmur_core::clock::to_rfc3339(entry.created_at), entry.email, invited);
            }
            Ok(())
        }
        Command::Backup { file, storage } => {
            let db = open_db(&storage).await?;
            murmur_core::db::backup::backup(&db, &file).await?;
            println!("backup written to {}", file.display());
            Ok(())
        }
        Command::ExportDb { file, storage } => {
            let db = open_db(&storage).await?;
            let counts = murmur_core::db::transfer::export(&db, &file).await?;
            for table in &counts {
                println!("{:<18} {:>10} rows", table.table, table.rows);
            }
            println!("exported to {}", file.display());
            db.close().await;
            Ok(())
        }
        Command::ImportDb { file, storage } => {
            std::fs::create_dir_all(&storage.data_dir)?;
            let db = Db::connect(&storage.database_url()).await?;
            // The file is checked before the target is touched, even by its migrations.
            let export =
                murmur_core::db::transfer::ImportFile::open(&file, murmur_core::db::transfer::latest_migration(&db))?;
            let source = export.source_backend().to_string();
            db.migrate().await?;
            let imported = murmur_core::db::transfer::import(&db, export).await?;
            println!("{:<18} {:>10} {:>10}", "table", "in file", "imported");
            for table in &imported {
                println!("{:<18} {:>10} {:>10}", table.table, table.in_file, table.in_database);
            }
            println!("imported {} (exported from {source}); every table's rows match the file", file.display());
            db.close().await;
            Ok(())
        }
        Command::Waitlist { command: WaitlistCommand::Invite { count, server } } => {
            let config = Config::from_args(&server, "127.0.0.1:0".parse()?);
            let invited = murmur_domain::waitlist::invite_oldest(&config, count).await?;
            println!("invited {invited} address(es)");
            Ok(())
        }
        Command::Seed { options, storage } => {
            let db = open_db(&storage).await?;
            let report = crate::seed::run(&db, &options).await?;
            println!("{report}");
            db.close().await;
            Ok(())
        }
    }
}

fn article(role: murmur_domain::moderation::Role) -> &'static str {
    if role == murmur_domain::moderation::Role::Admin { "an" } else { "a" }
}

/// `murmur check`: each dependency on a line, `ok` or what is wrong.
async fn check(server: &ServerArgs) -> anyhow::Result<()> {
    use murmur_server::health::Check;
    let config = Config::from_args(server, "127.0.0.1:0".parse()?);
    let mut checks = Vec::new();
    match Db::connect(&config.database_url).await {
        Ok(db) => {
            checks.push(murmur_server::health::database(&db).await);
            // Pending migrations are not a problem (`serve` applies them); worth knowing.
            for migration in db.pending_migrations().await? {
                println!("note       migration {migration} will run on the next start");
            }
        }
        Err(e) => checks.push(Check::failed("database", format!("Cannot connect to the database: {e:#}"))),
    }
    match murmur_domain::media::MediaStore::from_config(&config).await {
        Ok(media) => checks.push(murmur_server::health::object_store(&media).await),
        Err(e) => checks.push(Check::failed("objectStore", format!("The object store is not set up right: {e:#}"))),
    }
    match murmur_domain::mail::Mailer::from_config(&config) {
        Ok(mailer) => checks.extend(murmur_server::health::mail(&mailer).await),
        Err(e) => checks.push(Check::failed("mail", format!("Mail is not set up right: {e:#}"))),
    }
    for check in &checks {
        match &check.problem {
            None => println!("ok         {}", check.name),
            Some(problem) => println!("PROBLEM    {}: {problem}", check.name),
        }
    }
    let problems = checks.iter().filter(|c| !c.ok).count();
    if problems > 0 {
        anyhow::bail!("{problems} problem(s) found");
    }
    println!("everything answers");
    Ok(())
}

/// With no members yet, the operator needs a first invite: print one (reusing an unused one).
async fn first_start_invite(app: &Application) -> anyhow::Result<()> {
    let state = app.state();
    let members: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users").fetch_one(&state.db.read).await?;
    if members > 0 {
        return Ok(());
    }
    let now = state.clock.now();
    let existing: Option<String> = sqlx::query_scalar(
        "SELECT code FROM invites WHERE owner_id IS NULL AND used_at IS NULL AND expires_at > $1 ORDER BY id LIMIT 1",
    )
    .bind(now)
    .fetch_optional(&state.db.read)
    .await?;
    let code = match existing {
        Some(code) => code,
        None => murmur_domain::invites::insert_code(&state.db.write, None, now).await?.1,
    };
    println!(
        "\nMurmur has no members yet. Sign up as the first one with this invite code:\n\n    {code}\n\n\
         Open {} , choose Login, enter the code and your e-mail address.\n\
         (With SMTP_URL unset, the login e-mail is written to {}.)\n",
        state.config.public_url,
        state.config.data_dir.join("outbox").display()
    );
    Ok(())
}
