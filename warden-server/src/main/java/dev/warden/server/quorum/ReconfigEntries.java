package dev.warden.server.quorum;

import dev.warden.consensus.ConfigEntryCodec;
import dev.warden.consensus.Configuration;
import dev.warden.consensus.Entry;
import dev.warden.server.config.EnsembleConfig;
import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
import java.nio.charset.StandardCharsets;

/**
 * Tells the consensus core which log entries are configuration changes: transactions whose body
 * is a {@link TxnBody.Reconfig}, found by the body's tag without decoding other entries.
 */
public final class ReconfigEntries implements ConfigEntryCodec {
    public static final ReconfigEntries INSTANCE = new ReconfigEntries();

    private ReconfigEntries() {
    }

    @Override
    public Configuration configurationIn(Entry entry) {
        if (!Txn.isReconfig(entry.payload())) {
            return null;
        }
        TxnBody.Reconfig reconfig = (TxnBody.Reconfig) Txn.decode(entry.payload()).body();
        // the leader checked the text before proposing it: a line that does not parse here is a bug
        return EnsembleConfig.parse(new String(reconfig.memberText(), StandardCharsets.UTF_8), entry.zxid(),
                "the configuration change at zxid 0x" + Long.toHexString(entry.zxid())).toConfiguration();
    }
}
