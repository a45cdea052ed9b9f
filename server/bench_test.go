package server_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/crier/crier/server/servertest"
)

// BenchmarkHealth measures the whole /api/v1 pipeline (middleware, one query, JSON).
func BenchmarkHealth(b *testing.B) {
	srv := servertest.Start(b)
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		srv.Echo.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1", nil))
		if rec.Code != http.StatusOK {
			b.Fatal(rec.Code, rec.Body.String())
		}
	}
}

// BenchmarkValidationFailure measures a request rejected by the contract (route lookup,
// kin-openapi validation, issue mapping).
func BenchmarkValidationFailure(b *testing.B) {
	srv := servertest.Start(b)
	body := `{"email":"not-an-email","password":"short","firstName":"Ada"}`
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/api/v1/auth/signup", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		srv.Echo.ServeHTTP(rec, req)
		if rec.Code != http.StatusBadRequest {
			b.Fatal(rec.Code, rec.Body.String())
		}
	}
}
