package store

// PromoteDueJobsSQL is PromoteDueJobs's statement, for river_due_test.go.
const PromoteDueJobsSQL = promoteDueJobs
