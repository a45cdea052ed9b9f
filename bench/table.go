// Package bench measures Crier's API against a bare Echo + pgx handler on the same database, and
// prints what it measured as a markdown table (`make bench`; README "Performance" says how to read
// it). table.go and load.go are shared by every bench file: a file adds its rows with Table.Add.
package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// Row is one line of the table: a figure of Crier's beside its target and, where there is one,
// the bare handler's figure and the ratio.
type Row struct {
	What   string // e.g. "GET post, 16 concurrent"
	Target string // e.g. "≥ 0.7× bare"
	Crier  string
	Bare   string // "" when the row has no bare counterpart
	Ratio  string // "" when the row has no ratio
	Met    bool
}

// Table collects rows (safe for concurrent use) and prints them.
type Table struct {
	mu   sync.Mutex
	rows []Row
}

// Add appends a row.
func (t *Table) Add(r Row) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.rows = append(t.rows, r)
}

// Rows answers a copy of the rows so far.
func (t *Table) Rows() []Row {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]Row(nil), t.rows...)
}

// RowsFile is where a benchmark outside this package (the publishing one, in server/) leaves its
// rows for `make bench`'s table: CRIER_BENCH_ROWS, or nothing when unset.
func RowsFile() string { return os.Getenv("CRIER_BENCH_ROWS") }

// SaveRow appends r to the rows file, one JSON row per line (nothing when there is no file).
func SaveRow(r Row) error {
	if RowsFile() == "" {
		return nil
	}
	f, err := os.OpenFile(RowsFile(), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if err := json.NewEncoder(f).Encode(r); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// LoadRows adds the rows other benchmarks saved (none when there is no file yet).
func (t *Table) LoadRows() error {
	if RowsFile() == "" {
		return nil
	}
	b, err := os.ReadFile(RowsFile())
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	for dec.More() {
		var r Row
		if err := dec.Decode(&r); err != nil {
			return err
		}
		t.Add(r)
	}
	return nil
}

// AllMet says whether every row meets its target.
func (t *Table) AllMet() bool {
	for _, r := range t.Rows() {
		if !r.Met {
			return false
		}
	}
	return true
}

// Markdown renders | what | target | Crier | bare | ratio | met |.
func (t *Table) Markdown() string {
	var b strings.Builder
	b.WriteString("| what | target | Crier | bare | ratio | met |\n|---|---|---|---|---|---|\n")
	for _, r := range t.Rows() {
		met := "no"
		if r.Met {
			met = "yes"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", r.What, r.Target, r.Crier, dash(r.Bare), dash(r.Ratio), met)
	}
	return b.String()
}

// Print writes the table to w.
func (t *Table) Print(w io.Writer) { _, _ = io.WriteString(w, t.Markdown()) }

func dash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// ThroughputRow compares closed-loop throughput: met when Crier does at least min times the bare
// handler's requests per second.
func ThroughputRow(what string, min float64, crier, bare Result) Row {
	ratio := 0.0
	if bare.RPS() > 0 {
		ratio = crier.RPS() / bare.RPS()
	}
	return Row{What: what, Target: fmt.Sprintf("≥ %.1f× bare", min), Crier: crier.Summary(), Bare: bare.Summary(),
		Ratio: fmt.Sprintf("%.2f×", ratio), Met: ratio >= min && crier.Errors == 0 && bare.Errors == 0}
}

// LatencyRow checks a fixed-rate run's p99 against a ceiling in milliseconds.
func LatencyRow(what string, maxMS float64, crier, bare Result) Row {
	p99 := ms(crier.Quantile(0.99))
	return Row{What: what, Target: fmt.Sprintf("p99 ≤ %g ms", maxMS), Crier: crier.Summary(), Bare: bare.Summary(),
		Ratio: fmt.Sprintf("%.2f× bare's p99", p99/max(ms(bare.Quantile(0.99)), 0.001)), Met: p99 <= maxMS && crier.Errors == 0}
}

// RSSRow checks a resident set size in MB against a ceiling.
func RSSRow(what string, maxMB, gotMB float64) Row {
	return Row{What: what, Target: fmt.Sprintf("≤ %g MB", maxMB), Crier: fmt.Sprintf("%.0f MB", gotMB), Met: gotMB <= maxMB}
}
