package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"

	"github.com/crier/crier/app"
	"github.com/crier/crier/config"
	"github.com/crier/crier/server"
)

// rateLimits sets an organization's own API limits (an instance administrator's setting; the API
// has no operation for it). A window left out goes back to the default (CRIER_RATE_LIMITS).
func rateLimits(ctx context.Context, cfg config.Config, log *slog.Logger, args []string) error {
	fs := flag.NewFlagSet("rate-limits", flag.ContinueOnError)
	var o app.RateLimitOverride
	for _, f := range []struct {
		name string
		dst  **int
	}{{"per-second", &o.PerSecond}, {"per-10s", &o.Per10Seconds}, {"per-minute", &o.PerMinute}} {
		fs.Func(f.name, "requests per key or session in that window (default: CRIER_RATE_LIMITS)", func(v string) error {
			var n int
			if _, err := fmt.Sscan(v, &n); err != nil {
				return err
			}
			*f.dst = &n
			return nil
		})
	}
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return errors.New("usage: crier rate-limits ORGANIZATION_ID [--per-second N] [--per-10s N] [--per-minute N]")
	}
	srv, err := server.New(ctx, cfg, server.Options{Logger: log})
	if err != nil {
		return err
	}
	defer srv.Close()
	if err := srv.Service.SetOrganizationRateLimits(ctx, rest[0], o); err != nil {
		return err
	}
	p, err := srv.Service.RateLimitPolicy(ctx, rest[0])
	if err != nil {
		return err
	}
	fmt.Printf("%s: %s (each instance's share)\n", rest[0], p)
	return nil
}
