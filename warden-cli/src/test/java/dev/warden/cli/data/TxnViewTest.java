package dev.warden.cli.data;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.state.txn.TxnBody;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class TxnViewTest {
    /** A configuration change in the log is shown with its member lines, as the node it sets. */
    @Test
    void aReconfigurationShowsItsMemberLinesAndTheConfigNode() {
        String members = "server.1=127.0.0.1:2888:3888:participant;2181\nserver.2=127.0.0.1:2889:3889:participant;2182";
        TxnBody reconfig = new TxnBody.Reconfig(members.getBytes(StandardCharsets.UTF_8));

        TxnView.Op op = TxnView.describe(reconfig, DataFormat.NONE);

        assertEquals("reconfig", op.type());
        assertEquals(List.of(new TxnView.Field("members", members)), op.fields());
        assertEquals(List.of("/zookeeper/config"), TxnView.paths(reconfig));
        assertEquals(List.of("reconfig"), TxnView.types(reconfig));
    }
}
