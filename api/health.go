package api

import (
	"context"
	"reflect"
	"strings"
	"time"

	"github.com/crier/crier/app"
)

// AppGetHealth answers GET /api/v1: Crier's status and every network's.
func (s *Server) AppGetHealth(ctx context.Context, _ AppGetHealthRequestObject) (AppGetHealthResponseObject, error) {
	h, err := s.svc.Health(ctx)
	if err != nil {
		return nil, err
	}
	out := AppGetHealth200JSONResponse{Status: h.Status, Note: h.Note, CreatedAt: h.CreatedAt.Format(time.RFC3339Nano)}
	for n, p := range h.Platforms {
		if f := platformField(&out.Platforms, n); f != nil {
			*f = HealthPlatformStatus{Status: HealthPlatformStatusStatus(p.Status), Note: p.Note}
		}
	}
	return out, nil
}

// platformFields maps each network to its field of the generated HealthPlatforms, by the field's
// JSON name (the network's wire value).
var platformFields = func() map[app.Network]int {
	out := map[app.Network]int{}
	t := reflect.TypeFor[HealthPlatforms]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		out[app.Network(name)] = i
	}
	return out
}()

// platformField is the generated struct's field for network n.
func platformField(p *HealthPlatforms, n app.Network) *HealthPlatformStatus {
	i, ok := platformFields[n]
	if !ok {
		return nil
	}
	return reflect.ValueOf(p).Elem().Field(i).Addr().Interface().(*HealthPlatformStatus)
}
