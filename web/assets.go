package web

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/crier/crier/static"
	"github.com/crier/crier/views/layout"
)

// StaticCacheControl is the Cache-Control of every asset. Asset URLs carry a content hash
// (?v=…), so a deploy is picked up at once even though browsers keep files for an hour.
const StaticCacheControl = "public, max-age=3600"

// assetHashes maps each embedded file ("css/app.css") to the hex SHA-256 of its content.
var assetHashes = sync.OnceValue(func() map[string]string {
	hashes := map[string]string{}
	err := fs.WalkDir(static.FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(static.FS, name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		hashes[name] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		panic("web: hash static assets: " + err.Error()) // the FS is embedded: cannot happen
	}
	return hashes
})

// assetURL is the URL of an embedded file, versioned by its content.
func assetURL(name string) string {
	h, ok := assetHashes()[name]
	if !ok {
		panic("web: no static asset " + name)
	}
	return pathStatic + name + "?v=" + h[:12]
}

// pageAssets are the files every page loads.
var pageAssets = sync.OnceValue(func() layout.Assets {
	return layout.Assets{
		CSS:     assetURL("css/app.css"),
		HTMX:    assetURL("js/htmx.min.js"),
		App:     assetURL("js/app.js"),
		Favicon: assetURL("img/favicon.svg"),
	}
})

// serveStatic serves GET /static/* from the embedded FS, with an ETag (conditional requests answer
// 304) and StaticCacheControl. Directories and unknown files are 404.
func serveStatic(c echo.Context) error {
	name := strings.TrimPrefix(c.Param("*"), "/")
	sum, ok := assetHashes()[name]
	if !ok {
		return echo.ErrNotFound
	}
	f, err := static.FS.Open(name)
	if err != nil {
		return echo.ErrNotFound
	}
	defer f.Close()
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		return echo.ErrNotFound
	}
	h := c.Response().Header()
	h.Set("Cache-Control", StaticCacheControl)
	h.Set("ETag", `"`+sum[:32]+`"`)
	http.ServeContent(c.Response(), c.Request(), name, time.Time{}, rs) // embedded files have no time
	return nil
}
