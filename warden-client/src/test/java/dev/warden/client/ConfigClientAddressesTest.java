package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigClientAddressesTest {
    @Test
    void eachMemberServingClientsGivesItsClientAddress() {
        String config = String.join("\n",
                "server.1=10.0.0.1:2888:3888:participant;10.0.0.1:2181",
                "server.2=10.0.0.2:2888:3888:participant;2182",
                "server.3=10.0.0.3:2888:3888:observer;0.0.0.0:2183",
                "server.4=10.0.0.4:2888:3888:participant",
                "server.5=[fe80::5]:2888:3888:participant;[::]:2185",
                "server.6=10.0.0.6:2888:3888|10.1.0.6:2888:3888;2186",
                "group.1=1:2:4",
                "weight.1=2",
                "version=100000003");
        assertEquals(List.of("10.0.0.1:2181", "10.0.0.2:2182", "10.0.0.3:2183", "[fe80::5]:2185", "10.0.0.6:2186"),
                ConfigClientAddresses.parse(config));
    }

    @Test
    void aConfigurationWithoutClientAddressesGivesNone() {
        assertEquals(List.of(), ConfigClientAddresses.parse("server.1=10.0.0.1:2888:3888\nversion=0"));
        assertEquals(List.of(), ConfigClientAddresses.parse(""));
    }
}
