-- Sign-in through GitHub, Google and OpenID Connect providers (lib/server/accounts/identities.ts): an
-- account made through a provider has no password until its owner sets one through a reset link.
ALTER TABLE "users" ALTER COLUMN "password_hash" DROP NOT NULL;

-- An identity at a sign-in provider, linked to one account: (provider, subject) names it for good;
-- the address and login are the provider's at the last sign-in.
CREATE TABLE "identities" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "email" TEXT,
    "email_verified" BOOLEAN NOT NULL DEFAULT false,
    "username" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_sign_in_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "identities_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "identities_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "identities_provider_subject_key" ON "identities"("provider", "subject");
CREATE INDEX "identities_user_id_idx" ON "identities"("user_id");
