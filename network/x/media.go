package x

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

func mediaCategory(m app.MediaFile) string {
	switch {
	case m.Type == "video":
		return "tweet_video"
	case m.Mime == "image/gif":
		return "tweet_gif"
	default:
		return "tweet_image"
	}
}

type mediaAnswer struct {
	Data struct {
		ID             string `json:"id"`
		MediaKey       string `json:"media_key"`
		ProcessingInfo *struct {
			State          string `json:"state"`
			CheckAfterSecs int    `json:"check_after_secs"`
			Error          *struct {
				Code    int    `json:"code"`
				Name    string `json:"name"`
				Message string `json:"message"`
			} `json:"error"`
		} `json:"processing_info"`
	} `json:"data"`
}

// upload sends one media file through the chunked v2 flow (once: checkpointed under key when
// processed, and under processing.{key} while X processes it) and answers its media id.
func (a *Adapter) upload(ctx context.Context, t *app.Token, req *app.PublishRequest, key string, m app.MediaFile) (string, error) {
	if id := req.Checkpointed(key); id != "" {
		return id, nil
	}
	var st mediaAnswer
	id := req.Checkpointed("processing." + key)
	if id != "" {
		// An earlier attempt uploaded it and left it processing: look at it again.
		if err := a.mediaStatus(ctx, t, id, &st); err != nil {
			return "", err
		}
	} else {
		var err error
		if id, st, err = a.send(ctx, t, m); err != nil {
			return "", err
		}
		if pi := st.Data.ProcessingInfo; pi != nil && pi.State != "succeeded" && pi.State != "failed" {
			if err := req.Save(ctx, "processing."+key, id); err != nil {
				return "", err
			}
		}
	}
	for i := 0; st.Data.ProcessingInfo != nil && st.Data.ProcessingInfo.State != "succeeded"; i++ {
		pi := st.Data.ProcessingInfo
		if pi.State == "failed" {
			msg := "media processing failed"
			if pi.Error != nil && pi.Error.Message != "" {
				msg = pi.Error.Message
			}
			if req.Checkpointed("processing."+key) != "" {
				_ = req.Save(ctx, "processing."+key, "") // a retry uploads the file again
			}
			return "", &app.NetworkError{Network: app.Twitter, Class: app.ErrPermanent, Code: "media_processing_failed", Message: msg}
		}
		if err := a.pause(ctx, i, time.Duration(pi.CheckAfterSecs)*time.Second); err != nil {
			return "", pubutil.StillProcessing(app.Twitter, "the media", err)
		}
		st = mediaAnswer{}
		if err := a.mediaStatus(ctx, t, id, &st); err != nil {
			return "", err
		}
	}
	if m.AltText != "" && m.Type != "video" {
		if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/2/media/metadata", Bearer: t.AccessToken,
			JSON: map[string]any{"id": id, "metadata": map[string]any{"alt_text": map[string]string{"text": m.AltText}}}}, nil); err != nil {
			return "", err
		}
	}
	if err := req.Save(ctx, key, id); err != nil {
		return "", err
	}
	return id, nil
}

// send uploads the bytes (initialize → append → finalize) and answers the media id and finalize's
// answer.
func (a *Adapter) send(ctx context.Context, t *app.Token, m app.MediaFile) (string, mediaAnswer, error) {
	var fin mediaAnswer
	if m.Open == nil {
		return "", fin, &app.NetworkError{Network: app.Twitter, Class: app.ErrPermanent, Code: "media", Message: "media " + m.UploadID + " cannot be read"}
	}
	rc, err := m.Open(ctx)
	if err != nil {
		return "", fin, fmt.Errorf("x: open media %s: %w", m.UploadID, err)
	}
	data, err := io.ReadAll(rc)
	_ = rc.Close()
	if err != nil {
		return "", fin, fmt.Errorf("x: read media %s: %w", m.UploadID, err)
	}
	var init mediaAnswer
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/2/media/upload/initialize", Bearer: t.AccessToken,
		JSON: map[string]any{"media_type": m.Mime, "total_bytes": len(data), "media_category": mediaCategory(m)}}, &init); err != nil {
		return "", fin, err
	}
	id := init.Data.ID
	chunk := a.ChunkSize
	if chunk <= 0 {
		chunk = DefaultChunkSize
	}
	for seg, off := 0, 0; off < len(data); seg, off = seg+1, off+chunk {
		end := min(off+chunk, len(data))
		if err := a.appendChunk(ctx, t, id, seg, data[off:end]); err != nil {
			return "", fin, err
		}
	}
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/2/media/upload/" + url.PathEscape(id) + "/finalize", Bearer: t.AccessToken}, &fin); err != nil {
		return "", fin, err
	}
	return id, fin, nil
}

// mediaStatus reads a media's processing_info (STATUS).
func (a *Adapter) mediaStatus(ctx context.Context, t *app.Token, id string, st *mediaAnswer) error {
	return a.api.Do(ctx, core.Request{URL: a.base + "/2/media/upload?command=STATUS&media_id=" + url.QueryEscape(id), Bearer: t.AccessToken}, st)
}

func (a *Adapter) poller() pubutil.Poller {
	if a.Poll.Every > 0 {
		return a.Poll
	}
	return pubutil.Poller{Every: time.Second, Max: 30 * time.Second}
}

// pause waits before status poll i for the longer of the Poller's pause and X's check_after
// (inline when both are at most pubutil.InlineWait; else a *pubutil.Yield).
func (a *Adapter) pause(ctx context.Context, i int, after time.Duration) error {
	start := time.Now()
	if after > pubutil.InlineWait {
		// Too long to wait here: yield, at the Poller's time when that is later. A cancelled
		// context makes Wait answer at once (its Yield, or ctx's error for an inline pause).
		probe, cancel := context.WithCancel(ctx)
		cancel()
		var y *pubutil.Yield
		if errors.As(a.poller().Wait(probe, i), &y) && y.Until.After(start.Add(after)) {
			return y
		}
		return &pubutil.Yield{Until: start.Add(after)}
	}
	if err := a.poller().Wait(ctx, i); err != nil {
		return err // a Yield is already later than after
	}
	rest := after - time.Since(start)
	if rest <= 0 {
		return nil
	}
	timer := time.NewTimer(rest)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

func (a *Adapter) appendChunk(ctx context.Context, t *app.Token, id string, seg int, chunk []byte) error {
	body, ctype, err := core.Multipart(func(mw *multipart.Writer) error {
		if err := mw.WriteField("segment_index", strconv.Itoa(seg)); err != nil {
			return err
		}
		w, err := mw.CreateFormFile("media", "blob")
		if err != nil {
			return err
		}
		_, err = w.Write(chunk)
		return err
	})
	if err != nil {
		return err
	}
	return a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/2/media/upload/" + url.PathEscape(id) + "/append", Bearer: t.AccessToken,
		Body: body, ContentType: ctype}, nil)
}
