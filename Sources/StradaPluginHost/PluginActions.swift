import CFFI
import Foundation
package import StradaCore

/// A native action a plugin declares in its manifest, callable by signature from the command line
/// (`strada-host plugin call`) and the automation channel (`{"command":"call",…}`), with libffi:
///
/// ```json
/// "actions": [{"name": "add", "symbol": "counter_add", "signature": "i32(i32,i32)"}]
/// ```
/// Types: `i32`, `i64`, `f64`, `str` (a NUL-terminated UTF-8 `const char *`; a returned one stays owned by
/// the plugin), and `void` as a return type. Rationale: this is what libffi is for — calling a C function
/// whose signature is only known at run time — and it keeps the core ABI free of a generic call mechanism.
package struct PluginAction: Sendable, Equatable {
    package enum ValueType: String, Sendable, CaseIterable {
        case i32, i64, f64, str, void
    }
    package let name: String
    package let symbol: String
    package let returns: ValueType
    package let parameters: [ValueType]

    /// Parses `"i32(i32,str)"`.
    package init(name: String, symbol: String, signature: String) throws(MalformedMessage) {
        self.name = name
        self.symbol = symbol
        let trimmed = signature.replacingOccurrences(of: " ", with: "")
        guard let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")"),
            let returns = ValueType(rawValue: String(trimmed[..<open]))
        else {
            throw MalformedMessage(reason: "action \(name): signature \"\(signature)\" must look like \"i32(i32,str)\"")
        }
        let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        var parameters: [ValueType] = []
        for part in inner.split(separator: ",") {
            guard let type = ValueType(rawValue: String(part)), type != .void else {
                throw MalformedMessage(
                    reason: "action \(name): unknown parameter type \"\(part)\" (use i32, i64, f64, str)")
            }
            parameters.append(type)
        }
        self.returns = returns
        self.parameters = parameters
    }

    /// Calls the action in the plugin loaded from `handle` with `arguments` (JSON numbers and strings).
    /// Main thread; the plugin's code runs in this process.
    package func call(handle: UnsafeMutableRawPointer, arguments: [JSON]) throws(MalformedMessage) -> JSON {
        guard arguments.count == parameters.count else {
            throw MalformedMessage(
                reason: "action \(name) takes \(parameters.count) argument(s), got \(arguments.count)")
        }
        guard let function = dlsym(handle, symbol) else {
            throw MalformedMessage(reason: "action \(name): the plugin does not export \(symbol)")
        }
        // Argument storage: 8 bytes per value, plus C strings kept alive for the call.
        var storage = [UInt64](repeating: 0, count: max(parameters.count, 1))
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer { for string in strings { free(string) } }
        for (index, (type, given)) in zip(parameters, arguments).enumerated() {
            // Text from a command line stands for a number where the signature wants one.
            var argument = given
            if type != .str, case .string(let text) = given, let number = Double(text) { argument = .number(number) }
            switch (type, argument) {
            case (.i32, .number(let value)) where value == value.rounded() && abs(value) <= Double(Int32.max):
                storage[index] = UInt64(UInt32(bitPattern: Int32(value)))
            case (.i64, .number(let value)) where value == value.rounded():
                storage[index] = UInt64(bitPattern: Int64(value))
            case (.f64, .number(let value)):
                storage[index] = value.bitPattern
            case (.str, .string(let value)):
                let copy = strdup(value)!
                strings.append(copy)
                storage[index] = UInt64(UInt(bitPattern: copy))
            default:
                throw MalformedMessage(
                    reason: "action \(name): argument \(index + 1) must be \(type.rawValue), got \(argument)")
            }
        }
        var types: [UnsafeMutablePointer<ffi_type>?] = parameters.map(Self.ffiType)
        var cif = ffi_cif()
        let prepared = types.withUnsafeMutableBufferPointer { buffer in
            ffi_prep_cif(&cif, FFI_DEFAULT_ABI, UInt32(parameters.count), Self.ffiType(returns), buffer.baseAddress)
        }
        guard prepared == FFI_OK else {
            throw MalformedMessage(reason: "action \(name): libffi cannot prepare the call")
        }
        var result: UInt64 = 0
        storage.withUnsafeMutableBufferPointer { values in
            var pointers: [UnsafeMutableRawPointer?] = (0..<parameters.count).map {
                UnsafeMutableRawPointer(values.baseAddress! + $0)
            }
            pointers.withUnsafeMutableBufferPointer { argumentPointers in
                ffi_call(
                    &cif, unsafeBitCast(function, to: (@convention(c) () -> Void).self), &result,
                    argumentPointers.baseAddress)
            }
        }
        _ = types
        switch returns {
        case .void: return .null
        case .i32: return .number(Double(Int32(truncatingIfNeeded: Int64(bitPattern: result))))
        case .i64: return .number(Double(Int64(bitPattern: result)))
        case .f64: return .number(Double(bitPattern: result))
        case .str:
            guard let pointer = UnsafePointer<CChar>(bitPattern: UInt(result)) else { return .null }
            return .string(String(cString: pointer))
        }
    }

    private static func ffiType(_ type: ValueType) -> UnsafeMutablePointer<ffi_type>? {
        switch type {
        case .void: strada_ffi_type_void()
        case .i32: strada_ffi_type_sint32()
        case .i64: strada_ffi_type_sint64()
        case .f64: strada_ffi_type_double()
        case .str: strada_ffi_type_pointer()
        }
    }
}
