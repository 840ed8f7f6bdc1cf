package dev.warden.compat.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.testing.WardenTestingCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two Kafka 3.9 brokers in ZooKeeper mode, each in its own JVM, keep their metadata in a
 * three-member Warden ensemble under the chroot {@code /kafka}: broker registration, controller
 * election, topic creation, replication, consumer offsets and ACLs (AclAuthorizer stores them in
 * ZooKeeper). The Warden leader is killed (the brokers' sessions move to the other members),
 * then the controller broker with SIGKILL; the other must take over once Warden expires the dead
 * broker's session, and the topic must stay readable and writable.
 */
class KafkaOnWardenTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String TOPIC = "orders";

    @TempDir
    Path dir;
    private WardenTestingCluster warden;
    private final List<BrokerProcess> brokers = new ArrayList<>();

    @BeforeEach
    void start() {
        warden = WardenTestingCluster.start(3);
    }

    @AfterEach
    void stop() throws Exception {
        for (BrokerProcess broker : brokers) {
            broker.close();
        }
        warden.close();
    }

    private Admin admin(String bootstrap) {
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "20000");
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "60000");
        return Admin.create(config);
    }

    private static int freePort() throws Exception {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private String describe() {
        StringBuilder text = new StringBuilder("warden roles " + warden.roles());
        for (BrokerProcess broker : brokers) {
            text.append("\n--- broker ").append(broker.brokerId()).append(" alive=").append(broker.isAlive())
                    .append('\n').append(broker.logTail());
        }
        return text.toString();
    }

    private void awaitBrokers(Admin admin, int count) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            try {
                if (admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).size() == count) {
                    return;
                }
            } catch (Exception notYet) {
                // brokers still starting
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(count + " brokers did not register: " + describe());
            }
            Thread.sleep(200);
        }
    }

    private int awaitController(Admin admin, Set<Integer> allowed) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            try {
                var controller = admin.describeCluster().controller().get(10, TimeUnit.SECONDS);
                if (controller != null && allowed.contains(controller.id())) {
                    return controller.id();
                }
            } catch (Exception notYet) {
                // no controller known yet
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no controller among " + allowed + ": " + describe());
            }
            Thread.sleep(200);
        }
    }

    private static void produce(String bootstrap, String prefix, int count) throws Exception {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(TOPIC, "k" + i, prefix + i)).get(60, TimeUnit.SECONDS);
            }
        }
    }

    private static List<String> consumeAll(String bootstrap, String group, int expected) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of(TOPIC));
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (values.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    values.add(record.value());
                }
            }
            consumer.commitSync();
        }
        return values;
    }

    @Test
    void twoBrokersServeATopicWithAclsAndSurviveTheControllersDeath() throws Exception {
        String zookeeperConnect = warden.connectString() + "/kafka";
        brokers.add(BrokerProcess.start(1, freePort(), zookeeperConnect, dir));
        brokers.add(BrokerProcess.start(2, freePort(), zookeeperConnect, dir));
        String bootstrap = brokers.get(0).bootstrap() + "," + brokers.get(1).bootstrap();

        try (Admin admin = admin(bootstrap)) {
            awaitBrokers(admin, 2);
            int controller = awaitController(admin, Set.of(1, 2));

            admin.createTopics(List.of(new NewTopic(TOPIC, 2, (short) 2))).all().get(60, TimeUnit.SECONDS);
            produce(bootstrap, "before-", 50);
            List<String> first = consumeAll(bootstrap, "readers", 50);
            assertEquals(50, first.size(), describe());

            AclBinding acl = new AclBinding(new ResourcePattern(ResourceType.TOPIC, TOPIC, PatternType.LITERAL),
                    new AccessControlEntry("User:alice", "*", AclOperation.READ, AclPermissionType.ALLOW));
            admin.createAcls(List.of(acl)).all().get(60, TimeUnit.SECONDS);
            AclBindingFilter aclsOfTopic = new AclBindingFilter(
                    new ResourcePatternFilter(ResourceType.TOPIC, TOPIC, PatternType.LITERAL), AccessControlEntryFilter.ANY);
            long aclDeadline = System.nanoTime() + WAIT.toNanos();
            Collection<AclBinding> acls;
            while ((acls = admin.describeAcls(aclsOfTopic).values().get(30, TimeUnit.SECONDS)).isEmpty()) {
                assertTrue(System.nanoTime() < aclDeadline, "the ACL never showed: " + describe());
                Thread.sleep(200);
            }
            assertEquals(List.of(acl), List.copyOf(acls));

            // Kafka's metadata is in Warden, where any ZooKeeper client can read it.
            try (ZooKeeper zk = connect(warden.connectString())) {
                assertEquals(Set.of("1", "2"), Set.copyOf(zk.getChildren("/kafka/brokers/ids", false)));
                assertTrue(zk.exists("/kafka/brokers/topics/" + TOPIC, false) != null);
                String stored = new String(zk.getData("/kafka/kafka-acl/Topic/" + TOPIC, false, null), StandardCharsets.UTF_8);
                assertTrue(stored.contains("User:alice") && stored.contains("Read"), stored);
                String controllerNode = new String(zk.getData("/kafka/controller", false, null), StandardCharsets.UTF_8);
                assertTrue(controllerNode.contains("\"brokerid\":" + controller), controllerNode);
            }

            // The Warden leader goes: the brokers' sessions move to the other members and live on.
            long wardenLeader = warden.killLeader();
            produce(bootstrap, "during-", 10);
            assertEquals(10, consumeAll(bootstrap, "readers", 10).size(), "after Warden member " + wardenLeader
                    + " was killed: " + describe());

            BrokerProcess dying = brokers.get(controller - 1);
            BrokerProcess surviving = brokers.get(2 - controller);
            long killedNs = System.nanoTime();
            dying.kill();
            try (Admin survivorAdmin = admin(surviving.bootstrap())) {
                int newController = awaitController(survivorAdmin, Set.of(surviving.brokerId()));
                assertNotEquals(controller, newController);
                long failoverMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedNs);
                System.out.println("controller moved from broker " + controller + " to " + newController + " in "
                        + failoverMs + " ms");
                awaitBrokers(survivorAdmin, 1);
            }
            produce(surviving.bootstrap(), "after-", 50);
            List<String> second = consumeAll(surviving.bootstrap(), "readers", 50);
            assertEquals(50, second.size(), "the committed offsets survived and the new messages arrive: " + describe());
            assertTrue(second.stream().allMatch(value -> value.startsWith("after-")), second.toString());
        }
    }

    private static ZooKeeper connect(String connectString) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, 10_000, event -> {
            if (event.getState() == org.apache.zookeeper.Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        assertTrue(connected.await(10, TimeUnit.SECONDS));
        return zk;
    }

}
