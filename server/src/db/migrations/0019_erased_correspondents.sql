-- A deleted account's conversations stay with the other person (account/deletion.ts): the deleted
-- side's participant and their messages' sender become null ('Compte supprimé'), and the images
-- they sent are removed, leaving a message with neither text nor image.
ALTER TABLE "conversations" DROP CONSTRAINT "conversations_participant1_id_profiles_id_fk";--> statement-breakpoint
ALTER TABLE "conversations" DROP CONSTRAINT "conversations_participant2_id_profiles_id_fk";--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_sender_id_profiles_id_fk";--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_not_empty";--> statement-breakpoint
ALTER TABLE "conversations" ALTER COLUMN "participant1_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ALTER COLUMN "participant2_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "sender_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_participant1_id_profiles_id_fk" FOREIGN KEY ("participant1_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_participant2_id_profiles_id_fk" FOREIGN KEY ("participant2_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_sender_id_profiles_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_not_empty" CHECK (char_length("messages"."content") > 0 or "messages"."image_url" is not null or "messages"."sender_id" is null);--> statement-breakpoint
-- At most one of the two may be gone: a conversation left with nobody is deleted.
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_someone_left" CHECK ("conversations"."participant1_id" is not null or "conversations"."participant2_id" is not null);
