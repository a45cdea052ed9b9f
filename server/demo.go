package server

import (
	"context"
	"errors"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/sandbox"
)

// SeedDemo seeds the living demo (app.SeedLivingDemo) through this server: its sandbox for the
// connect flows and the failure, its posts service, its workers for the publishing. The server
// must be serving HTTP at its BaseURL with SANDBOX=1 and workers.
func (s *Server) SeedDemo(ctx context.Context) (*app.DemoSeed, error) {
	if s.Sandbox == nil {
		return nil, errors.New("demo: the living demo needs SANDBOX=1")
	}
	if s.River == nil {
		return nil, errors.New("demo: the living demo needs the workers")
	}
	return s.Service.SeedLivingDemo(ctx, app.DemoLive{
		Posts: s.Publishing,
		FailNext: func(n app.Network, status int, message string) error {
			return s.Sandbox.Inject(n, sandbox.Failure{Status: status, Message: message, Times: 1})
		},
	})
}
