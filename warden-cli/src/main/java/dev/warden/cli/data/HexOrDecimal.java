package dev.warden.cli.data;

import picocli.CommandLine;

/** Parses zxids and session ids written as ZooKeeper prints them (0x1f) or in decimal. */
final class HexOrDecimal implements CommandLine.ITypeConverter<Long> {
    @Override
    public Long convert(String text) {
        String trimmed = text.trim();
        try {
            if (trimmed.startsWith("0x") || trimmed.startsWith("0X")) {
                return Long.parseUnsignedLong(trimmed.substring(2), 16);
            }
            return Long.parseLong(trimmed);
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + text + "' is not a number (write 0x1f or 31)");
        }
    }
}
