package dev.warden.server.jmx;

import dev.warden.server.net.MemberStatus;
import java.util.HashMap;
import java.util.Map;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ZooKeeper's {@code Learner_Connections} beans: under a leader's role bean, and under a
 * follower's while it serves observers as their master, one per learner connected,
 * {@code name3=Learner_Connections,name4="<host:port>",name5="id:<N>"} (the address the learner's
 * connection comes from), each with {@code terminateConnection}. Not thread-safe: its
 * {@link MemberBeans} calls it under its own lock.
 */
final class LearnerConnectionBeans {
    private static final Logger LOG = LoggerFactory.getLogger(LearnerConnectionBeans.class);

    private final ServerBeans beans;
    private final MemberStatus status;
    /** The role bean they go under, null while the member has none that takes learners. */
    private String parent;
    /** The bean shown for each learner, by id. */
    private final Map<Long, String> shown = new HashMap<>();

    LearnerConnectionBeans(ServerBeans beans, MemberStatus status) {
        this.beans = beans;
        this.status = status;
    }

    /** The role bean is now {@code roleBeanName} (null: none); those under the old one went with it. */
    void parentChanged(String roleBeanName) {
        parent = roleBeanName == null || roleBeanName.endsWith("=Observer") ? null : roleBeanName;
        shown.clear();
        refresh();
    }

    /** Makes the beans match the learners connected now: new ones registered, gone or moved ones dropped. */
    void refresh() {
        Map<Long, String> wanted = new HashMap<>();
        if (parent != null) {
            status.learnerConnections().forEach((id, from) -> wanted.put(id, parent
                    + ",name3=Learner_Connections,name4=" + ObjectName.quote(from) + ",name5=\"id:" + id + "\""));
        }
        for (Map.Entry<Long, String> bean : new HashMap<>(shown).entrySet()) {
            if (!bean.getValue().equals(wanted.get(bean.getKey()))) {
                beans.unregisterFrom(bean.getValue());
                shown.remove(bean.getKey());
            }
        }
        wanted.forEach((id, name) -> {
            if (!shown.containsKey(id)) {
                beans.register(name, new LearnerConnection(id));
                shown.put(id, name);
            }
        });
    }

    private final class LearnerConnection implements LearnerConnectionMXBean {
        private final long learnerId;

        LearnerConnection(long learnerId) {
            this.learnerId = learnerId;
        }

        @Override
        public void terminateConnection() {
            LOG.info("Closing the connection of learner {} on demand (JMX)", learnerId);
            status.terminateLearnerConnection(learnerId);
        }
    }
}
