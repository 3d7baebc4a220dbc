-- Each participant's side of a conversation: 'accepted' (in their list), 'request' (a stranger's first messages, waiting in 'Demandes'), 'deleted' (a request they removed). Existing conversations are accepted on both sides.
ALTER TABLE "conversations" ADD COLUMN "participant1_state" text DEFAULT 'accepted' NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "participant2_state" text DEFAULT 'accepted' NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_participant1_state" CHECK ("conversations"."participant1_state" in ('accepted', 'request', 'deleted'));--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_participant2_state" CHECK ("conversations"."participant2_state" in ('accepted', 'request', 'deleted'));
