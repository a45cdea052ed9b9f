package bench

import (
	"context"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// SelfCPU answers this process's CPU time so far (user and system).
func SelfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ProcessCPU answers the CPU time so far of process pid, from /proc (false when it does not show it).
func ProcessCPU(pid int) (time.Duration, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// utime and stime are fields 14 and 15, in clock ticks (100 a second), after the ")" of the name.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 13 {
		return 0, false
	}
	ut, _ := strconv.Atoi(f[11])
	st, _ := strconv.Atoi(f[12])
	return time.Duration(ut+st) * 10 * time.Millisecond, true
}

// BackendsCPU answers the CPU time so far of the pool's database's backends (-1 when /proc does
// not show them; a backend that exits between two readings loses its share).
func BackendsCPU(pool *pgxpool.Pool) time.Duration {
	rows, err := pool.Query(context.Background(), "SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
	if err != nil {
		return -1
	}
	defer rows.Close()
	var total time.Duration
	for rows.Next() {
		var pid int
		if rows.Scan(&pid) != nil {
			return -1
		}
		cpu, ok := ProcessCPU(pid)
		if !ok {
			return -1
		}
		total += cpu
	}
	return total
}
