CREATE TABLE "analytics_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"day" date NOT NULL,
	"name" text NOT NULL,
	"visitor" text,
	"path" text,
	"revenue_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_events_name" CHECK ("analytics_events"."name" in ('signup', 'login', 'post_created', 'message_sent', 'premium_conversion', 'search', 'map_interaction'))
);
--> statement-breakpoint
CREATE TABLE "analytics_salts" (
	"day" date PRIMARY KEY NOT NULL,
	"salt" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cost_alerts" (
	"day" date NOT NULL,
	"level" text NOT NULL,
	"ratio" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cost_alerts_day_level_pk" PRIMARY KEY("day","level")
);
--> statement-breakpoint
CREATE TABLE "cost_counters" (
	"day" date NOT NULL,
	"metric" text NOT NULL,
	"units" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "cost_counters_day_metric_pk" PRIMARY KEY("day","metric")
);
--> statement-breakpoint
CREATE TABLE "emergency_mode" (
	"id" integer PRIMARY KEY NOT NULL,
	"active_until" timestamp with time zone,
	"started_at" timestamp with time zone,
	"manual" boolean DEFAULT false NOT NULL,
	CONSTRAINT "emergency_mode_single" CHECK ("emergency_mode"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "terms_version" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "terms_accepted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "analytics_events_day_idx" ON "analytics_events" USING btree ("day","name");