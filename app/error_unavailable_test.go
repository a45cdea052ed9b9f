package app

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"
)

func TestRefusedConnectionsAreUnavailable(t *testing.T) {
	t.Parallel()
	for _, code := range []string{"53300", "57P03", "08006"} { // too many clients, starting up, connection failure
		err := fmt.Errorf("app: list teams: %w", &pgconn.PgError{Code: code, Message: "sorry, too many clients already"})
		require.Equal(t, EUnavailable, ErrorCode(err), code)
		require.Equal(t, UnavailableMessage, ErrorMessage(err))
		require.Equal(t, UnavailableRetry, RetryAfter(err))
	}
	err := fmt.Errorf("app: x: %w", &pgconn.PgError{Code: "23505"})
	require.Equal(t, EInternal, ErrorCode(err), "a bug stays a 500")
	require.Zero(t, RetryAfter(err))
}
