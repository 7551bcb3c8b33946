package io.kproxy.chaos;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;

/**
 * fabric8's CRUD dispatcher, with each watch's close handled off the mock server's event loop.
 * The mock's watch listener ({@code WatchEventsListener.onClosed}, kubernetes-server-mock 7.8)
 * waits up to a minute, on the single Vert.x event loop, for its event sender to finish; a sender
 * in the middle of a send needs that event loop, so a watch closed while a change is being sent
 * stalls the whole mock API server for up to a minute (found by the 60-minute soak: 43 s without
 * an answer after a relist, reported by the agent as {@code api-server-unreachable}). No API
 * server does that; running the close on its own thread leaves the event loop free. Thread-safe.
 */
final class MockDispatcher extends Dispatcher {

    private final KubernetesCrudDispatcher crud = new KubernetesCrudDispatcher();

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        MockResponse inner = crud.dispatch(request);
        WebSocketListener listener = inner.getWebSocketListener();
        return listener == null ? inner : new MockResponse().withWebSocketUpgrade(new ClosedOffLoop(listener));
    }

    /** Delegates every callback; the close ones on a thread of their own. */
    private static final class ClosedOffLoop extends WebSocketListener {
        private final WebSocketListener inner;

        ClosedOffLoop(WebSocketListener inner) {
            this.inner = inner;
        }

        @Override
        public void onBeforeAccept(WebSocket webSocket, Response response) {
            inner.onBeforeAccept(webSocket, response);
        }

        @Override
        public void onOpen(WebSocket webSocket, Response response) {
            inner.onOpen(webSocket, response);
        }

        @Override
        public void onMessage(WebSocket webSocket, String text) {
            inner.onMessage(webSocket, text);
        }

        @Override
        public void onMessage(WebSocket webSocket, byte[] bytes) {
            inner.onMessage(webSocket, bytes);
        }

        @Override
        public void onClosing(WebSocket webSocket, int code, String reason) {
            inner.onClosing(webSocket, code, reason);
        }

        @Override
        public void onClosed(WebSocket webSocket, int code, String reason) {
            Thread.ofPlatform().daemon().name("chaos-mock-watch-closed").start(() -> inner.onClosed(webSocket, code, reason));
        }

        @Override
        public void onFailure(WebSocket webSocket, Throwable error, Response response) {
            Thread.ofPlatform().daemon().name("chaos-mock-watch-failed").start(() -> inner.onFailure(webSocket, error, response));
        }
    }
}
