// Command crier runs Crier: `crier serve` (HTTP and River workers), `crier migrate`, and operator
// commands. Configuration comes from the environment (see config and the README).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/config"
	"github.com/crier/crier/migrations"
	"github.com/crier/crier/server"
	"github.com/crier/crier/store"
)

const usage = `Crier: social publishing for 15 networks.

Usage:
  crier serve [--no-http] [--no-workers]   serve HTTP and run River workers (migrates first)
  crier migrate                            apply app and River migrations, then exit
  crier sandbox                            serve the simulated networks on SANDBOX_ADDR (a process of
                                           their own; point Crier at it with SANDBOX_URL)
  crier demo [--serve]                     seed the living demo organization (needs SANDBOX=1); print
                                           its login and a fresh API key; --serve keeps serving (make run)
  crier platform-status                    list every network's status (as in GET /api/v1)
  crier platform-status set NETWORK STATUS [--note TEXT] [--for DURATION]
                                           announce an incident or maintenance window
  crier rate-limits ORG_ID [--per-second N] [--per-10s N] [--per-minute N]
                                           set an organization's API limits (omitted: the default)

Configuration is read from the environment: DATABASE_URL, ADDR, BASE_URL, CRIER_SECRET, CRIER_ENV,
SANDBOX, SANDBOX_URL, SANDBOX_ADDR, SMTP_URL, STORAGE_URL, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE,
ALLOW_PRIVATE_URLS (see README.md).
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "crier:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Print(usage)
		return nil
	}
	cfg, err := config.Load(os.Getenv)
	if err != nil {
		return fmt.Errorf("configuration:\n%w", err)
	}
	log := newLogger(cfg)
	switch args[0] {
	case "serve":
		return serve(ctx, cfg, log, args[1:])
	case "migrate":
		pool, err := store.Connect(ctx, cfg.DatabaseURL)
		if err != nil {
			return err
		}
		defer pool.Close()
		if err := migrations.Migrate(ctx, pool); err != nil {
			return err
		}
		log.Info("migrations applied")
		return nil
	case "sandbox":
		ln, err := net.Listen("tcp", cfg.SandboxAddr)
		if err != nil {
			return fmt.Errorf("SANDBOX_ADDR: listen on %s: %w", cfg.SandboxAddr, err)
		}
		return server.RunSandbox(ctx, ln, log)
	case "platform-status":
		return platformStatus(ctx, cfg, log, args[1:])
	case "demo":
		return demo(ctx, cfg, log, args[1:])
	case "rate-limits":
		return rateLimits(ctx, cfg, log, args[1:])
	}
	return fmt.Errorf("unknown command %q\n\n%s", args[0], usage)
}

func serve(ctx context.Context, cfg config.Config, log *slog.Logger, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	noHTTP := fs.Bool("no-http", false, "run only the River workers")
	noWorkers := fs.Bool("no-workers", false, "serve only HTTP (jobs are enqueued for other instances)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *noHTTP && *noWorkers {
		return errors.New("serve: --no-http and --no-workers together leave nothing to run")
	}
	server.TuneGC()
	srv, err := server.New(ctx, cfg, server.Options{HTTP: !*noHTTP, Workers: !*noWorkers, Logger: log})
	if err != nil {
		return err
	}
	defer srv.Close()
	var ln net.Listener
	if !*noHTTP {
		if ln, err = net.Listen("tcp", cfg.Addr); err != nil {
			return fmt.Errorf("ADDR: listen on %s: %w", cfg.Addr, err)
		}
	}
	return srv.Run(ctx, ln)
}

func platformStatus(ctx context.Context, cfg config.Config, log *slog.Logger, args []string) error {
	srv, err := server.New(ctx, cfg, server.Options{Logger: log})
	if err != nil {
		return err
	}
	defer srv.Close()
	if len(args) > 0 && args[0] == "set" {
		fs := flag.NewFlagSet("platform-status set", flag.ContinueOnError)
		note := fs.String("note", "", "what users should know")
		dur := fs.Duration("for", 0, "how long the status lasts (e.g. 2h); 0 until changed")
		rest, err := parseInterspersed(fs, args[1:])
		if err != nil {
			return err
		}
		if len(rest) != 2 {
			return errors.New("usage: crier platform-status set NETWORK STATUS [--note TEXT] [--for DURATION]")
		}
		p := app.SetPlatformStatusParams{Network: app.Network(strings.ToUpper(rest[0])), Status: strings.ToLower(rest[1]), Note: *note}
		if *dur > 0 {
			until := time.Now().Add(*dur)
			p.Until = &until
		}
		if _, err := srv.Service.SetPlatformStatus(ctx, p); err != nil {
			for _, is := range app.ErrorIssues(err) {
				fmt.Fprintf(os.Stderr, "  %v: %s\n", is.Path, is.Message)
			}
			return err
		}
	}
	h, err := srv.Service.Health(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "NETWORK\tSTATUS\tNOTE\n")
	for _, n := range app.Networks {
		p := h.Platforms[n]
		fmt.Fprintf(tw, "%s\t%s\t%s\n", n, p.Status, p.Note)
	}
	return tw.Flush()
}

// demo serves while it seeds: the connect flows and the publishing go through this process's
// sandbox and workers. The sandbox forgets its tokens when the process ends, so `make run` seeds
// (reconnecting the accounts) in the process that keeps serving.
func demo(ctx context.Context, cfg config.Config, log *slog.Logger, args []string) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	keep := fs.Bool("serve", false, "keep serving after seeding")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *keep {
		server.TuneGC() // it serves as `crier serve` does
	}
	srv, err := server.New(ctx, cfg, server.Options{HTTP: true, Workers: true, Logger: log})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("ADDR: listen on %s: %w", cfg.Addr, err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Run(runCtx, ln) }()

	var d *app.DemoSeed
	if srv.Sandbox != nil {
		d, err = srv.SeedDemo(ctx)
	} else {
		log.Warn("demo: no in-process sandbox (SANDBOX=1 without SANDBOX_URL): the demo organization stays empty")
		d, err = srv.Service.SeedDemo(ctx)
	}
	if err != nil {
		cancel()
		<-done
		return err
	}
	fmt.Printf("Demo organization ready.\n  Dashboard: %s/  (sign in as %s / %s)\n  Team:      %s\n  API key:   %s\n  Try:       curl -H 'x-api-key: %s' %s/api/v1/post?teamId=%s\n",
		cfg.BaseURL, d.Email, d.Password, d.TeamID, d.APIKey, d.APIKey, cfg.BaseURL, d.TeamID)
	if !*keep {
		cancel()
	}
	return <-done
}

// parseInterspersed lets flags follow positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return rest, nil
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
}

func newLogger(cfg config.Config) *slog.Logger {
	var h slog.Handler = slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})
	if cfg.Production() {
		h = slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})
	}
	return slog.New(h)
}
