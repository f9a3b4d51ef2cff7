@testable import StradaPluginHost

/// A test-side interpreter of the few classic BPF instructions ``SeccompFilter`` emits (load a word of
/// `seccomp_data`, jump if equal, jump if any bit is set, return), run the way the kernel runs a seccomp program:
/// from the first instruction, forward only, until a return. Anything else is a failure of the program.
enum ClassicBPF {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `seccomp_data` for a call `number` from `architecture` with `arguments` (64 bytes, little-endian).
    static func data(number: UInt32, architecture: UInt32, arguments: [UInt64] = []) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 64)
        func put<T: FixedWidthInteger>(_ value: T, at offset: Int) {
            withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<offset + $0.count, with: $0) }
        }
        put(number, at: 0)
        put(architecture, at: 4)
        for (index, argument) in arguments.prefix(6).enumerated() { put(argument, at: 16 + 8 * index) }
        return bytes
    }

    /// What `program` returns for `data`.
    static func run(_ program: [SeccompFilter.Instruction], on data: [UInt8]) throws -> UInt32 {
        var accumulator: UInt32 = 0
        var pc = 0
        while pc < program.count {
            let instruction = program[pc]
            switch instruction.code {
            case 0x20:
                let offset = Int(instruction.k)
                guard offset % 4 == 0, offset + 4 <= data.count else { throw Failure(description: "load at \(offset)") }
                accumulator = data[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
                pc += 1
            case 0x15:
                pc += 1 + Int(accumulator == instruction.k ? instruction.jt : instruction.jf)
            case 0x45:
                pc += 1 + Int(accumulator & instruction.k != 0 ? instruction.jt : instruction.jf)
            case 0x06:
                return instruction.k
            default:
                throw Failure(description: "instruction \(pc) has code \(instruction.code)")
            }
        }
        throw Failure(description: "the program ran off its end")
    }
}
