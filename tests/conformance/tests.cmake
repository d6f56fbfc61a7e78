# ONNX backend node tests against the reference executor (issue 3). The data is generated from the
# Debian python3-onnx package into the build tree; the runner runs every case (the whole suite is
# the denominator) and checks the outcome against expected_failures.txt and excluded.txt.
add_executable(conformance_runner ${CMAKE_CURRENT_LIST_DIR}/conformance_runner.cpp)
target_link_libraries(conformance_runner PRIVATE fw_core onnx_proto protobuf::libprotobuf fw_warnings)

set(FW_CONFORMANCE_DIR ${CMAKE_BINARY_DIR}/conformance)
add_test(NAME conformance_generate
         COMMAND /usr/bin/python3 ${CMAKE_SOURCE_DIR}/scripts/gen_conformance.py ${FW_CONFORMANCE_DIR})
set_tests_properties(conformance_generate PROPERTIES FIXTURES_SETUP fw_conformance_data TIMEOUT 600
                                                     SKIP_RETURN_CODE 77)
add_test(NAME conformance_node_tests
         COMMAND conformance_runner ${FW_CONFORMANCE_DIR}/node ${CMAKE_CURRENT_LIST_DIR}/expected_failures.txt
                 ${CMAKE_CURRENT_LIST_DIR}/excluded.txt
                 ${CMAKE_BINARY_DIR}/conformance_results.txt)
set_tests_properties(conformance_node_tests PROPERTIES FIXTURES_REQUIRED fw_conformance_data TIMEOUT 300
                                                       SKIP_RETURN_CODE 77)
