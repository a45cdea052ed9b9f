package bench

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/labstack/echo/v4"
)

// bare is the yardstick: what a minimal Echo v4 + pgxpool service does for the same calls on the
// same database — the key checked by its prefix and SHA-256, then one statement (the post or team
// by primary key, a page of posts, one row inserted or updated), answered as the row's JSON. No
// contract check, no targets or uploads, no audit or events: the floor Crier's figures are divided by.
func startBare(t testing.TB, pool *pgxpool.Pool) string {
	t.Helper()
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	auth := func(c echo.Context) (string, bool) {
		key := c.Request().Header.Get("x-api-key")
		rest, ok := strings.CutPrefix(key, "crier_")
		if !ok || len(rest) < 10 {
			return "", false
		}
		var org string
		var hash []byte
		err := pool.QueryRow(c.Request().Context(), `SELECT organization_id, secret_hash FROM api_keys WHERE prefix = $1 AND revoked_at IS NULL`, rest[:8]).Scan(&org, &hash)
		sum := sha256.Sum256([]byte(key))
		return org, err == nil && subtle.ConstantTimeCompare(sum[:], hash) == 1
	}
	one := func(c echo.Context, status int, sql string, args ...any) error {
		org, ok := auth(c)
		if !ok {
			return c.NoContent(http.StatusUnauthorized)
		}
		var out []byte
		if err := pool.QueryRow(c.Request().Context(), sql, append([]any{org}, args...)...).Scan(&out); err != nil {
			return c.NoContent(http.StatusNotFound)
		}
		return c.JSONBlob(status, out)
	}
	e.GET("/api/v1/post/:id", func(c echo.Context) error {
		return one(c, http.StatusOK, `SELECT row_to_json(p) FROM posts p WHERE organization_id = $1 AND id = $2`, c.Param("id"))
	})
	e.GET("/api/v1/post", func(c echo.Context) error {
		return one(c, http.StatusOK, `SELECT json_build_object('items', coalesce(json_agg(p), '[]'), 'total', count(*)) FROM (
			SELECT * FROM posts WHERE organization_id = $1 AND team_id = $2 AND deleted_at IS NULL ORDER BY created_at DESC LIMIT 20) p`, c.QueryParam("teamId"))
	})
	e.GET("/api/v1/team/:id", func(c echo.Context) error {
		return one(c, http.StatusOK, `SELECT row_to_json(t) FROM teams t WHERE organization_id = $1 AND id = $2`, c.Param("id"))
	})
	e.POST("/api/v1/post", func(c echo.Context) error {
		var in struct {
			TeamID string `json:"teamId"`
			Title  string `json:"title"`
		}
		if err := c.Bind(&in); err != nil {
			return err
		}
		return one(c, http.StatusOK, `INSERT INTO posts (organization_id, team_id, title, post_date, status, social_account_types, data)
			VALUES ($1, $2, $3, now() + interval '1 day', 'DRAFT', '{TWITTER}', '{}') RETURNING row_to_json(posts)`, in.TeamID, in.Title)
	})
	e.PATCH("/api/v1/post/:id", func(c echo.Context) error {
		var in struct {
			Title string `json:"title"`
		}
		if err := c.Bind(&in); err != nil {
			return err
		}
		return one(c, http.StatusOK, `UPDATE posts SET title = $3, updated_at = now() WHERE organization_id = $1 AND id = $2 RETURNING row_to_json(posts)`, c.Param("id"), in.Title)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: e}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Shutdown(context.Background()) })
	return "http://" + ln.Addr().String()
}
