package server

import (
	"github.com/crier/crier/app"
	"github.com/crier/crier/network/sandbox"
	"github.com/crier/crier/web"
)

// SandboxInspector adapts the sandbox networks to what the dashboard's inspector page reads and
// turns (web.SandboxInspector): web never imports the simulator, the composition root joins them.
func SandboxInspector(sb *sandbox.Sandbox) web.SandboxInspector { return sandboxInspector{sb} }

type sandboxInspector struct{ sb *sandbox.Sandbox }

func (a sandboxInspector) Summaries() []web.SandboxSummary {
	var out []web.SandboxSummary
	for _, s := range a.sb.Summaries() {
		held := 0
		for _, n := range s.Held {
			held += n
		}
		out = append(out, web.SandboxSummary{Network: s.Network, Users: s.Users, Held: held, Calls: s.Calls, Failed: s.Failed,
			Failures: s.Failures, LiveTokens: s.LiveTokens, LastCall: s.LastCall})
	}
	return out
}

func (a sandboxInspector) Inspect(n app.Network, calls int) (web.SandboxNetwork, error) {
	in, err := a.sb.Inspect(n, calls)
	if err != nil {
		return web.SandboxNetwork{}, err
	}
	out := web.SandboxNetwork{Network: in.Network, StatePath: in.StatePath, KeptCalls: in.KeptCalls, RefreshTokens: in.RefreshTokens,
		DefaultTTL: in.DefaultTTL, Knobs: web.SandboxKnobs{LatencyMs: in.Knobs.LatencyMs, TokenTTLSeconds: in.Knobs.TokenTTLSeconds}}
	for _, u := range in.Users {
		wu := web.SandboxUser{ID: u.ID, Login: u.Login, Name: u.Name, Email: u.Email}
		for _, c := range u.Channels {
			name := c.Name
			username := c.Username
			if c.IGUsername != "" && username == "" {
				username = "@" + c.IGUsername
			}
			wu.Channels = append(wu.Channels, web.SandboxChannel{ID: c.ID, Name: name, Username: username})
		}
		out.Users = append(out.Users, wu)
	}
	for _, h := range in.Held {
		out.Held = append(out.Held, web.SandboxHeld{Kind: h.Kind, ID: h.ID, User: h.User, Channel: h.Channel, Text: h.Text, Parent: h.Parent,
			URL: h.URL, Media: h.Media, At: h.At, DeletedAt: h.DeletedAt})
	}
	for _, c := range in.Calls {
		out.Calls = append(out.Calls, web.SandboxCall{At: c.At, Method: c.Method, Path: c.Path, Query: c.Query, Status: c.Status})
	}
	for _, f := range in.Failures {
		out.Failures = append(out.Failures, web.SandboxFailure(f))
	}
	for _, t := range in.Tokens {
		out.Tokens = append(out.Tokens, web.SandboxToken{User: t.User, Scope: t.Scope, Hint: t.Hint, Expires: t.Expires})
	}
	return out, nil
}

func (a sandboxInspector) Inject(n app.Network, f web.SandboxFailure) error {
	return a.sb.Inject(n, sandbox.Failure(f))
}

func (a sandboxInspector) ClearFailures(n app.Network) error { return a.sb.ClearFailures(n) }

func (a sandboxInspector) SetKnobs(n app.Network, k web.SandboxKnobs) error {
	return a.sb.SetKnobs(n, sandbox.Knobs{LatencyMs: k.LatencyMs, TokenTTLSeconds: k.TokenTTLSeconds})
}

func (a sandboxInspector) ExpireTokens(n app.Network) error { return a.sb.ExpireTokens(n) }
func (a sandboxInspector) RevokeTokens(n app.Network) error { return a.sb.RevokeTokens(n) }
func (a sandboxInspector) Reset(n app.Network) error        { return a.sb.Reset(n) }
