package server

import (
	"os"
	"runtime/debug"
)

// A Crier process's garbage collector settings, unless GOGC or GOMEMLIMIT set them. Crier's live
// heap is small (about 10-15 MB: the API contract, the pools' buffers and statement caches) and its
// requests allocate (a GET post about 38 KB), so at Go's default GOGC=100, 2,000 GET post a second
// ran 8-9 collections a second: 18-24 % of the process's CPU, on cores PostgreSQL shares. GOGC=300
// collects about a quarter as often (-30 µs of CPU per GET post, about 10 %). The soft limit keeps
// a heap that grows (a sign-in's Argon2 takes 64 MB) from reaching 4× its size, and the RSS within
// issue 15's 150 MB: the bench process (Crier and the bare handler) at 2,000 req/s measured 101-104
// MB at the defaults, 130 MB with these settings, 155 MB with a 128 MiB limit.
const (
	GCPercent   = 300
	MemoryLimit = 100 << 20
)

// TuneGC applies GCPercent and MemoryLimit to this process, unless the environment sets GOGC or
// GOMEMLIMIT. `crier serve` calls it, and so does the benchmark process that measures Crier.
func TuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(GCPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(MemoryLimit)
	}
}
