package bench

import (
	"fmt"
	"os"
	"testing"

	"github.com/crier/crier/server"
)

// results gathers every benchmark's rows (API, pages, publishing); TestMain prints them as one
// table when the run ends, so `make bench` answers with a single table of figures beside targets.
var results = &Table{}

func TestMain(m *testing.M) {
	if RunChild() { // a load generator started by OpenProcess
		os.Exit(0)
	}
	server.TuneGC() // the GC settings of `crier serve`, for Crier (and the bare handler) here
	code := m.Run()
	if len(results.Rows()) > 0 {
		if err := results.LoadRows(); err != nil { // the publishing row (server/, run first by make bench)
			fmt.Fprintln(os.Stderr, "bench: rows file:", err)
			code = 1
		}
		fmt.Fprintln(os.Stdout)
		results.Print(os.Stdout)
		if !results.AllMet() {
			fmt.Fprintln(os.Stdout, "\nsome targets are not met (met = no)")
		}
	}
	os.Exit(code)
}
