package dev.warden.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.client.ConnectionState;
import dev.warden.client.WardenException;
import dev.warden.client.WatchEvent;
import dev.warden.protocol.ErrorCode;
import org.junit.jupiter.api.Test;

class FormatsTest {
    @Test
    void codeTextMatchesZkCliNames() {
        assertEquals("ConnectionLoss", Formats.codeText(ErrorCode.CONNECTION_LOSS));
        assertEquals("NoNode", Formats.codeText(ErrorCode.NO_NODE));
        assertEquals("No such watcher", Formats.codeText(ErrorCode.NO_WATCHER));
        assertEquals("InvalidACL", Formats.codeText(ErrorCode.INVALID_ACL));
        assertEquals("AuthFailed", Formats.codeText(ErrorCode.AUTH_FAILED));
    }

    @Test
    void errorMessagesForTheCommonCodes() {
        assertEquals("Node does not exist: /a", Formats.errorMessage(WardenException.of(ErrorCode.NO_NODE.code(), "/a")));
        assertEquals("Node already exists: /a", Formats.errorMessage(WardenException.of(ErrorCode.NODE_EXISTS.code(), "/a")));
        assertEquals("KeeperErrorCode = ConnectionLoss for /a",
                Formats.errorMessage(WardenException.of(ErrorCode.CONNECTION_LOSS.code(), "/a")));
        assertEquals("KeeperErrorCode = Session expired",
                Formats.errorMessage(WardenException.of(ErrorCode.SESSION_EXPIRED.code(), null)));
    }

    @Test
    void eventsAreOneLine() {
        assertEquals("WATCHER:: WatchedEvent state:SyncConnected type:NodeDeleted path:/x zxid: 12",
                Formats.watchEvent(new WatchEvent(WatchEvent.Kind.NODE_DELETED, "/x", 12)));
        assertEquals("WATCHER:: WatchedEvent state:Disconnected type:None path:null zxid: -1",
                Formats.stateEvent(ConnectionState.SUSPENDED));
        assertEquals("WATCHER:: WatchedEvent state:ConnectedReadOnly type:None path:null zxid: -1",
                Formats.stateEvent(ConnectionState.CONNECTED_READ_ONLY));
    }
}
