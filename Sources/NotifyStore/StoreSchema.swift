import GRDB

/// The store's schema as append-only named migrations (SPEC.md §9). Never edit a
/// migration once it has landed: add a new one.
enum StoreSchema {
  /// The first migration: a database that has it is a notify store.
  static let first = "v1-notifications-claims-history"

  /// The last migration: the schema this version writes.
  static var latest: String { migrator.migrations.last ?? "" }

  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1-notifications-claims-history") { db in
      try db.execute(
        sql: """
          CREATE TABLE notification (
            rowid INTEGER PRIMARY KEY AUTOINCREMENT,
            app TEXT NOT NULL CHECK (length(app) BETWEEN 1 AND 128),
            id TEXT NOT NULL CHECK (length(id) BETWEEN 1 AND 128),
            title TEXT,
            body TEXT,
            action TEXT,
            launch_image TEXT,
            sound TEXT NOT NULL DEFAULT 'none',
            badge INTEGER CHECK (badge BETWEEN 0 AND 99999),
            user_info TEXT NOT NULL DEFAULT '{}',
            urgency TEXT NOT NULL DEFAULT 'normal' CHECK (urgency IN ('low', 'normal', 'critical')),
            fire_instant INTEGER,
            wall_clock TEXT,
            time_zone TEXT,
            repeat_interval TEXT
              CHECK (repeat_interval IN ('minute', 'hour', 'day', 'week', 'month', 'year')),
            repeat_count INTEGER CHECK (repeat_count >= 1),
            until_instant INTEGER,
            delivered_count INTEGER NOT NULL DEFAULT 0 CHECK (delivered_count >= 0),
            created_at INTEGER NOT NULL,
            next_occurrence INTEGER NOT NULL DEFAULT 0 CHECK (next_occurrence >= 0),
            next_fire_at INTEGER,
            resolved_zone TEXT,
            CHECK ((fire_instant IS NULL) <> (wall_clock IS NULL)),
            CHECK ((wall_clock IS NULL) = (time_zone IS NULL)),
            CHECK (repeat_interval IS NOT NULL OR (repeat_count IS NULL AND until_instant IS NULL))
          );
          CREATE UNIQUE INDEX notification_pending_id ON notification(app, id)
            WHERE next_fire_at IS NOT NULL;
          CREATE INDEX notification_next_fire ON notification(next_fire_at)
            WHERE next_fire_at IS NOT NULL;
          CREATE INDEX notification_app_next_fire ON notification(app, next_fire_at)
            WHERE next_fire_at IS NOT NULL;

          CREATE TABLE claim (
            notification_rowid INTEGER NOT NULL,
            occurrence INTEGER NOT NULL CHECK (occurrence >= 0),
            fire_at INTEGER NOT NULL,
            late INTEGER NOT NULL CHECK (late IN (0, 1)),
            coalesced INTEGER NOT NULL DEFAULT 0,
            owner TEXT NOT NULL,
            claimed_at INTEGER NOT NULL,
            snapshot TEXT NOT NULL,
            PRIMARY KEY (notification_rowid, occurrence)
          );

          CREATE TABLE event (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            at INTEGER NOT NULL,
            app TEXT NOT NULL,
            notification_id TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN
              ('delivered', 'discarded', 'cancelled', 'missed', 'failed', 'activated', 'dismissed')),
            reason TEXT,
            occurrence INTEGER,
            fire_at INTEGER,
            late INTEGER CHECK (late IN (0, 1)),
            sound_requested TEXT,
            sound_note TEXT,
            detail TEXT NOT NULL DEFAULT '{}'
          );
          CREATE INDEX event_app_seq ON event(app, seq);

          CREATE TABLE badge (
            app TEXT PRIMARY KEY,
            count INTEGER NOT NULL CHECK (count BETWEEN 0 AND 99999),
            updated_at INTEGER NOT NULL
          );

          CREATE TABLE desktop_id (
            app TEXT NOT NULL,
            id TEXT NOT NULL,
            server_id INTEGER NOT NULL,
            PRIMARY KEY (app, id)
          );
          """)
    }
    // Whether any `local` wall-clock row was computed for another system zone is asked on
    // every re-arm and claim; this index answers it with three range seeks instead of a
    // walk over every pending row (BENCHMARKS.md, Scale).
    migrator.registerMigration("v2-local-zone-index") { db in
      try db.execute(
        sql: """
          CREATE INDEX notification_local_zone ON notification(resolved_zone)
            WHERE next_fire_at IS NOT NULL AND time_zone = 'local';
          """)
    }
    // `notify daemon` wrote dismissal reasons as Swift case names (`dismissedByUser`) while
    // apps wrote the names history documents (`dismissed-by-user`); one engine writes the
    // latter now, and earlier rows are renamed so that history reads one way.
    migrator.registerMigration("v3-dismiss-reason-names") { db in
      for (old, new) in [
        ("expired", "expired"), ("dismissedByUser", "dismissed-by-user"), ("closedByCall", "closed-by-call"),
        ("undefined", "undefined"),
      ] where old != new {
        try db.execute(
          sql: "UPDATE event SET reason = ? WHERE kind = 'dismissed' AND reason = ?", arguments: [new, old])
      }
    }
    // The way back to the app: who wrote each history row (so an app's center can tell
    // the events others recorded from its own), the responses waiting for an app a click
    // launched, the app processes online now, and per-app settings (the desktop entry).
    migrator.registerMigration("v4-responses-presence") { db in
      try db.execute(
        sql: """
          ALTER TABLE event ADD COLUMN writer TEXT;
          CREATE INDEX event_app_writer ON event(app, seq, writer);

          CREATE TABLE response (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            at INTEGER NOT NULL,
            app TEXT NOT NULL,
            notification_id TEXT NOT NULL,
            action_key TEXT NOT NULL,
            occurrence INTEGER,
            activation_token TEXT,
            title TEXT,
            body TEXT,
            action TEXT,
            launch_image TEXT,
            sound TEXT NOT NULL DEFAULT 'none',
            badge INTEGER,
            user_info TEXT NOT NULL DEFAULT '{}',
            urgency TEXT NOT NULL DEFAULT 'normal'
          );
          CREATE INDEX response_app ON response(app, seq);

          CREATE TABLE presence (
            app TEXT NOT NULL,
            owner TEXT NOT NULL,
            fires INTEGER NOT NULL CHECK (fires IN (0, 1)),
            since INTEGER NOT NULL,
            PRIMARY KEY (app, owner)
          );

          CREATE TABLE app_settings (
            app TEXT PRIMARY KEY CHECK (length(app) BETWEEN 1 AND 128),
            desktop_entry TEXT
          );
          """)
    }
    migrator.registerMigration("v5-left-bubbles") { db in
      try db.execute(
        sql: """
          CREATE TABLE left_bubble (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            at INTEGER NOT NULL,
            server_id INTEGER NOT NULL,
            occurrence INTEGER NOT NULL,
            app TEXT NOT NULL,
            notification_id TEXT NOT NULL,
            title TEXT,
            body TEXT,
            action TEXT,
            launch_image TEXT,
            sound TEXT NOT NULL DEFAULT 'none',
            badge INTEGER,
            user_info TEXT NOT NULL DEFAULT '{}',
            urgency TEXT NOT NULL DEFAULT 'normal'
          );
          """)
    }
    migrator.registerMigration("v6-settings-quiet-hours") { db in
      try db.execute(
        sql: """
          ALTER TABLE app_settings ADD COLUMN alerts INTEGER CHECK (alerts IN (0, 1));
          ALTER TABLE app_settings ADD COLUMN sounds INTEGER CHECK (sounds IN (0, 1));
          ALTER TABLE app_settings ADD COLUMN badges INTEGER CHECK (badges IN (0, 1));
          ALTER TABLE app_settings ADD COLUMN breaks_quiet INTEGER CHECK (breaks_quiet IN (0, 1));
          ALTER TABLE app_settings ADD COLUMN requested INTEGER CHECK (requested BETWEEN 0 AND 7);

          CREATE TABLE preference (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
          );

          CREATE TABLE held (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            held_at INTEGER NOT NULL,
            fire_date INTEGER NOT NULL,
            occurrence INTEGER NOT NULL,
            claimed_by TEXT,
            app TEXT NOT NULL,
            notification_id TEXT NOT NULL,
            title TEXT,
            body TEXT,
            action TEXT,
            launch_image TEXT,
            sound TEXT NOT NULL DEFAULT 'none',
            badge INTEGER,
            user_info TEXT NOT NULL DEFAULT '{}',
            urgency TEXT NOT NULL DEFAULT 'normal'
          );
          CREATE INDEX held_app ON held(app, seq);

          -- History gains the kind 'held': SQLite cannot change a CHECK, so the table is
          -- copied (sequence numbers kept).
          CREATE TABLE event_v6 (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            at INTEGER NOT NULL,
            app TEXT NOT NULL,
            notification_id TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN
              ('delivered', 'discarded', 'cancelled', 'missed', 'failed', 'activated', 'dismissed', 'held')),
            reason TEXT,
            occurrence INTEGER,
            fire_at INTEGER,
            late INTEGER CHECK (late IN (0, 1)),
            sound_requested TEXT,
            sound_note TEXT,
            detail TEXT NOT NULL DEFAULT '{}',
            writer TEXT
          );
          INSERT INTO event_v6 (seq, at, app, notification_id, kind, reason, occurrence, fire_at, late,
            sound_requested, sound_note, detail, writer)
            SELECT seq, at, app, notification_id, kind, reason, occurrence, fire_at, late,
              sound_requested, sound_note, detail, writer FROM event;
          DROP TABLE event;
          ALTER TABLE event_v6 RENAME TO event;
          CREATE INDEX event_app_seq ON event(app, seq);
          CREATE INDEX event_app_writer ON event(app, seq, writer);
          """)
    }
    // Actions: the buttons of a notification wherever its content is kept; a
    // snoozed copy of an occurrence (`snoozed_occurrence`), pending beside its repeating
    // original, so the pending index allows one of each per id; the reply text and whether
    // a response launched its app; history gains the kind 'snoozed' (the table is copied
    // again, sequence numbers kept).
    migrator.registerMigration("v7-actions-snooze") { db in
      try db.execute(
        sql: """
          ALTER TABLE notification ADD COLUMN actions TEXT;
          ALTER TABLE notification ADD COLUMN snoozed_occurrence INTEGER CHECK (snoozed_occurrence >= 1);
          ALTER TABLE response ADD COLUMN actions TEXT;
          ALTER TABLE response ADD COLUMN user_text TEXT;
          ALTER TABLE response ADD COLUMN launched INTEGER NOT NULL DEFAULT 1 CHECK (launched IN (0, 1));
          ALTER TABLE left_bubble ADD COLUMN actions TEXT;
          ALTER TABLE held ADD COLUMN actions TEXT;
          -- Which server instance gave each id (bus id and the server's unique name): an id
          -- means nothing to another server, or to the same one after a restart or login.
          ALTER TABLE desktop_id ADD COLUMN server TEXT;

          DROP INDEX notification_pending_id;
          CREATE UNIQUE INDEX notification_pending_id
            ON notification(app, id, snoozed_occurrence IS NOT NULL) WHERE next_fire_at IS NOT NULL;

          CREATE TABLE event_v7 (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            at INTEGER NOT NULL,
            app TEXT NOT NULL,
            notification_id TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN
              ('delivered', 'discarded', 'cancelled', 'missed', 'failed', 'activated', 'dismissed', 'held',
               'snoozed')),
            reason TEXT,
            occurrence INTEGER,
            fire_at INTEGER,
            late INTEGER CHECK (late IN (0, 1)),
            sound_requested TEXT,
            sound_note TEXT,
            detail TEXT NOT NULL DEFAULT '{}',
            writer TEXT
          );
          INSERT INTO event_v7 (seq, at, app, notification_id, kind, reason, occurrence, fire_at, late,
            sound_requested, sound_note, detail, writer)
            SELECT seq, at, app, notification_id, kind, reason, occurrence, fire_at, late,
              sound_requested, sound_note, detail, writer FROM event;
          DROP TABLE event;
          ALTER TABLE event_v7 RENAME TO event;
          CREATE INDEX event_app_seq ON event(app, seq);
          CREATE INDEX event_app_writer ON event(app, seq, writer);
          """)
    }
    migrator.registerMigration("v8-repeat-rule") { db in
      // A calendar rule (RFC 5545 RRULE and EXDATE, canonical text); a notification
      // repeats by a unit or by a rule. The rule carries its own COUNT and UNTIL.
      try db.execute(
        sql: """
          ALTER TABLE notification ADD COLUMN repeat_rule TEXT
            CHECK (repeat_rule IS NULL OR (repeat_interval IS NULL AND length(repeat_rule) BETWEEN 6 AND 8192));
          """)
    }
    migrator.registerMigration("v9-presence-sink") { db in
      // Where a firer's deliveries go now (`desktop`, `stdout`): `notify status` tells.
      try db.execute(
        sql: "ALTER TABLE presence ADD COLUMN sink TEXT CHECK (sink IS NULL OR length(sink) <= 32)")
    }
    migrator.registerMigration("v10-rich-content") { db in
      // Rich content: a subtitle, the interruption level (NULL in rows stored
      // before levels: the urgency stands for it), the thread, the attachments kept in the
      // store's attachment folder (a JSON array), whether the body is marked up, wherever a
      // notification's content is kept.
      var sql = ""
      for table in ["notification", "response", "left_bubble", "held"] {
        sql += """
          ALTER TABLE \(table) ADD COLUMN subtitle TEXT;
          ALTER TABLE \(table) ADD COLUMN interruption_level TEXT
            CHECK (interruption_level IS NULL OR interruption_level IN ('passive', 'active', 'timeSensitive', 'critical'));
          ALTER TABLE \(table) ADD COLUMN thread TEXT CHECK (thread IS NULL OR length(thread) BETWEEN 1 AND 128);
          ALTER TABLE \(table) ADD COLUMN attachments TEXT;
          ALTER TABLE \(table) ADD COLUMN body_markup INTEGER NOT NULL DEFAULT 0 CHECK (body_markup IN (0, 1));

          """
      }
      try db.execute(sql: sql)
    }
    migrator.registerMigration("v11-categories") { db in
      // Categories: the buttons an app registers once under a name
      // (`NotificationCategory`), as the JSON array a notification's own `actions` are kept
      // in (NULL: none); and the category a notification names, wherever its content is kept.
      var sql = """
        CREATE TABLE category (
          app TEXT NOT NULL CHECK (length(app) BETWEEN 1 AND 128),
          identifier TEXT NOT NULL CHECK (length(identifier) BETWEEN 1 AND 64),
          actions TEXT CHECK (actions IS NULL OR json_valid(actions)),
          PRIMARY KEY (app, identifier)
        ) WITHOUT ROWID;

        """
      for table in ["notification", "response", "left_bubble", "held"] {
        sql += """
          ALTER TABLE \(table) ADD COLUMN category TEXT
            CHECK (category IS NULL OR length(category) BETWEEN 1 AND 64);

          """
      }
      try db.execute(sql: sql)
    }
    migrator.registerMigration("v12-threads") { db in
      // Threads as one bubble: the summary format wherever a notification's
      // content is kept, and each thread's bubble: the notification it shows now (its bubble
      // is that one's `desktop_id`: gone once the bubble is closed) and how many
      // notifications it has shown since it was new.
      var sql = ""
      for table in ["notification", "response", "left_bubble", "held"] {
        sql += """
          ALTER TABLE \(table) ADD COLUMN thread_summary TEXT
            CHECK (thread_summary IS NULL OR length(thread_summary) BETWEEN 1 AND 100);

          """
      }
      sql += """
        CREATE TABLE thread_bubble (
          app TEXT NOT NULL,
          thread TEXT NOT NULL CHECK (length(thread) BETWEEN 1 AND 128),
          id TEXT NOT NULL,
          count INTEGER NOT NULL CHECK (count >= 1),
          PRIMARY KEY (app, thread)
        ) WITHOUT ROWID;
        """
      try db.execute(sql: sql)
    }
    migrator.registerMigration("v13-realert") { db in
      // Alarms: `{"every": SECONDS, "times": M}` wherever a notification's content
      // is kept, plus `"number"` in a re-alert copy (a pending row with `snoozed_occurrence`
      // set, the occurrence it re-alerts).
      var sql = ""
      for table in ["notification", "response", "left_bubble", "held"] {
        sql += """
          ALTER TABLE \(table) ADD COLUMN realert TEXT
            CHECK (realert IS NULL OR (json_valid(realert) AND length(realert) <= 128));

          """
      }
      try db.execute(sql: sql)
    }
    migrator.registerMigration("v14-time-sensitive") { db in
      // The user's per-app switch for time-sensitive notifications during quiet hours (issue
      // 28; NULL: the default policy decides, on unless the user turned it off).
      try db.execute(
        sql: "ALTER TABLE app_settings ADD COLUMN time_sensitive INTEGER CHECK (time_sensitive IN (0, 1))")
    }
    migrator.registerMigration("v15-thread-shown-by") { db in
      // Who showed a thread's bubble and when: a bubble whose process stopped
      // since has nobody to hear its close (`ThreadSummary.likelyClosed`). NULL (a bubble
      // from before): heard.
      try db.execute(
        sql: """
          ALTER TABLE thread_bubble ADD COLUMN shown_at INTEGER;
          ALTER TABLE thread_bubble ADD COLUMN shown_by TEXT;
          """)
    }
    migrator.registerMigration("v16-calendars") { db in
      // Calendars on disk whose alarms notify shows (docs/calendars.md): each watched path
      // with the app its alarms go to, and the alarms the rolling window stored, so that a
      // rescan replaces, cancels or leaves them and never brings back one that was shown.
      // `watermark` (ms): alarm instants at or before it are done. `fingerprint`: the files
      // (names, sizes, times) and zone of the last scan, so that a run of fire-due with
      // nothing changed reads no file. `history_seen`: the last history event write-back read.
      try db.execute(
        sql: """
          CREATE TABLE calendar (
            name TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 128),
            path TEXT NOT NULL CHECK (length(path) BETWEEN 1 AND 4096),
            app TEXT NOT NULL CHECK (length(app) BETWEEN 1 AND 128),
            write_back INTEGER NOT NULL DEFAULT 0 CHECK (write_back IN (0, 1)),
            added_at INTEGER NOT NULL,
            watermark INTEGER NOT NULL,
            fingerprint TEXT,
            history_seen INTEGER NOT NULL DEFAULT 0
          );
          CREATE TABLE calendar_alarm (
            calendar TEXT NOT NULL REFERENCES calendar(name) ON DELETE CASCADE,
            id TEXT NOT NULL CHECK (length(id) BETWEEN 1 AND 128),
            fire_at INTEGER NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('pending', 'done')),
            digest TEXT NOT NULL,
            file TEXT NOT NULL,
            uid TEXT NOT NULL,
            recurrence_id TEXT,
            alarm_key TEXT NOT NULL,
            PRIMARY KEY (calendar, id)
          );
          """)
    }
    migrator.registerMigration("v17-wake") { db in
      // Sleep, wake and power: whether a notification wakes the machine and how late it may
      // be shown (milliseconds; NULL: however late), with the partial index that finds the
      // earliest waking one in every outlook without a scan; the user's per-app switch
      // (NULL: the default policy, on); what a firer found it can do to wake the machine
      // (`WakeFacts`, JSON), for `notify status`.
      try db.execute(
        sql: """
          ALTER TABLE notification ADD COLUMN wake INTEGER NOT NULL DEFAULT 0 CHECK (wake IN (0, 1));
          ALTER TABLE notification ADD COLUMN expire_late INTEGER
            CHECK (expire_late IS NULL OR expire_late BETWEEN 1000 AND 31536000000);
          CREATE INDEX notification_wake_next ON notification(next_fire_at)
            WHERE wake = 1 AND next_fire_at IS NOT NULL;
          ALTER TABLE app_settings ADD COLUMN wake INTEGER CHECK (wake IN (0, 1));
          ALTER TABLE presence ADD COLUMN wake TEXT
            CHECK (wake IS NULL OR (json_valid(wake) AND length(wake) <= 4096));
          """)
    }
    return migrator
  }
}
