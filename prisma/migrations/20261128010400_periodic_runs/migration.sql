-- When each job the scheduler runs once per period across every app instance last began
-- (lib/server/platform/periodic.ts): the store's sweep of files no row names, which every instance
-- ran at each start and every 6 hours before. An instance takes a period by moving its job's mark
-- forward in one statement, which only one instance of any number asking at once can do.
CREATE TABLE "periodic_runs" (
    "name" TEXT NOT NULL,
    "last_run_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "periodic_runs_pkey" PRIMARY KEY ("name")
);
