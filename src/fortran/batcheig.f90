!> batcheig: Fortran module for libbatcheig, batched dense eigensolvers.
!>
!> Two layers, both in this one module:
!>
!> 1. bind(C) interfaces to every entry point of include/batcheig.h, with the
!>    C names (batcheigCreate, batcheigDgeevBatched, ...) and the enum values
!>    as named integer(c_int) constants (BATCHEIG_STATUS_SUCCESS, ...).
!>    Handles, params objects, streams and every array argument are
!>    type(c_ptr) passed by value, so the same interface takes host arrays
!>    (c_loc(a)), device arrays (a c_ptr from cudaMalloc, or CUDA Fortran's
!>    c_devloc) and c_null_ptr. The functions return the batcheigStatus_t.
!>
!> 2. Generic wrappers over precision that take assumed-shape host arrays:
!>       call batcheig_geev(a, wr, wi, info [, vl=vl] [, vr=vr] ...)   real
!>       call batcheig_geev(a, w, info [, vl=vl] [, vr=vr] ...)        complex
!>       call batcheig_syevj(a, w, info [, jobz='V'] [, uplo='L'] ...) real symmetric
!>       call batcheig_heevj(a, w, info [, jobz='V'] [, uplo='L'] ...) complex Hermitian
!>                                                              (real too)
!>       call batcheig_set_devices(handle, devices [, status] [, errmsg])
!>       call batcheig_get_devices(handle, devices [, status] [, errmsg])
!>                    GPUs shared by calls with host arrays on a CUDA handle
!>    a(lda, n, batch) holds the batch (matrix b is a(:, :, b), lda >= n), the
!>    eigenvalues go to w(n, batch) (wr, wi for real geev), eigenvectors to
!>    vl/vr(ldv, n, batch), per-matrix status to info(batch) with the
!>    meaning of the C API. The arrays must be contiguous: the wrappers pass
!>    their addresses to C and never copy, so a non-contiguous actual argument
!>    (an array section with a stride, a transposed view) is an error.
!>    Optional arguments: handle (else a temporary handle with backend AUTO
!>    is created and destroyed inside the call; pass one when calling often),
!>    params (type(c_ptr) from batcheigCreateParams), status (receives the
!>    batcheigStatus_t; argument errors found by the wrapper give
!>    BATCHEIG_STATUS_INVALID_VALUE) and errmsg (a description of the error,
!>    blank on success). Without status, any error prints a message to
!>    error_unit and stops the program (error stop), like an ALLOCATE
!>    without stat=.
!>
!> Kinds: integer(c_int), integer(c_size_t), real(c_float), real(c_double),
!> complex(c_float_complex), complex(c_double_complex) (the same as the
!> default integer, real32/real64 and their complex kinds with gfortran, ifx,
!> nvfortran and flang on the supported platforms).
!>
!> Language level: Fortran 2003 (iso_c_binding, type-bound procedures,
!> deferred-length character) plus the Fortran 2008 intrinsic is_contiguous
!> and error stop (gfortran >= 9).
module batcheig
  use, intrinsic :: iso_c_binding, only: c_int, c_size_t, c_double, c_float, &
      c_float_complex, c_double_complex, c_char, c_ptr, c_null_ptr, c_loc, &
      c_associated, c_f_pointer
  use, intrinsic :: iso_fortran_env, only: error_unit
  implicit none
  private

  ! -------------------------------------------------------------------------
  ! Constants: the values of the C enums and version macros.

  !> Version of the C header this module was written against
  !> (batcheigGetVersion gives the loaded library's).
  integer(c_int), parameter, public :: BATCHEIG_VERSION_MAJOR = 0
  integer(c_int), parameter, public :: BATCHEIG_VERSION_MINOR = 1
  integer(c_int), parameter, public :: BATCHEIG_VERSION_PATCH = 0

  ! batcheigStatus_t
  integer(c_int), parameter, public :: BATCHEIG_STATUS_SUCCESS = 0
  integer(c_int), parameter, public :: BATCHEIG_STATUS_NOT_INITIALIZED = 1
  integer(c_int), parameter, public :: BATCHEIG_STATUS_ALLOC_FAILED = 2
  integer(c_int), parameter, public :: BATCHEIG_STATUS_INVALID_VALUE = 3
  integer(c_int), parameter, public :: BATCHEIG_STATUS_NOT_SUPPORTED = 4
  integer(c_int), parameter, public :: BATCHEIG_STATUS_EXECUTION_FAILED = 5
  integer(c_int), parameter, public :: BATCHEIG_STATUS_INTERNAL_ERROR = 6

  ! batcheigBackend_t
  integer(c_int), parameter, public :: BATCHEIG_BACKEND_AUTO = 0
  integer(c_int), parameter, public :: BATCHEIG_BACKEND_HOST = 1
  integer(c_int), parameter, public :: BATCHEIG_BACKEND_CUDA = 2

  ! batcheigEigMode_t
  integer(c_int), parameter, public :: BATCHEIG_EIG_MODE_NOVECTOR = 0
  integer(c_int), parameter, public :: BATCHEIG_EIG_MODE_VECTOR = 1

  ! batcheigFillMode_t
  integer(c_int), parameter, public :: BATCHEIG_FILL_MODE_LOWER = 0
  integer(c_int), parameter, public :: BATCHEIG_FILL_MODE_UPPER = 1

  ! batcheigAlgorithm_t
  integer(c_int), parameter, public :: BATCHEIG_ALG_AUTO = 0
  integer(c_int), parameter, public :: BATCHEIG_ALG_GEEV_HOST_QR = 1
  integer(c_int), parameter, public :: BATCHEIG_ALG_JACOBI_HOST_SCALAR = 2
  integer(c_int), parameter, public :: BATCHEIG_ALG_JACOBI_HOST_BLOCK = 3
  integer(c_int), parameter, public :: BATCHEIG_ALG_GEEV_CUDA_THREAD = 16
  integer(c_int), parameter, public :: BATCHEIG_ALG_GEEV_CUDA_WARP = 17
  integer(c_int), parameter, public :: BATCHEIG_ALG_GEEV_CUDA_BLOCK = 18
  integer(c_int), parameter, public :: BATCHEIG_ALG_GEEV_CUDA_GLOBAL = 19
  integer(c_int), parameter, public :: BATCHEIG_ALG_JACOBI_CUDA_WARP = 20
  integer(c_int), parameter, public :: BATCHEIG_ALG_JACOBI_CUDA_SHARED = 21
  integer(c_int), parameter, public :: BATCHEIG_ALG_JACOBI_CUDA_GLOBAL = 22
  integer(c_int), parameter, public :: BATCHEIG_ALG_JACOBI_CUDA_BLOCK = 23
  integer(c_int), parameter, public :: BATCHEIG_ALG_JACOBI_CUDA_LANE = 24
  integer(c_int), parameter, public :: BATCHEIG_ALG_JACOBI_CUDA_CLUSTER = 25
  integer(c_int), parameter, public :: BATCHEIG_ALG_JACOBI_CUDA_GRID = 26
  integer(c_int), parameter, public :: BATCHEIG_ALG_JACOBI_CUDA_MIXED = 27
  integer(c_int), parameter, public :: BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG = 28
  integer(c_int), parameter, public :: BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG = 29

  ! batcheigInfoCode_t (special per-matrix info values)
  integer(c_int), parameter, public :: BATCHEIG_INFO_NONFINITE = -1
  integer(c_int), parameter, public :: BATCHEIG_INFO_JACOBI_NOT_CONVERGED = -2

  ! -------------------------------------------------------------------------
  ! Layer 1: bind(C) interfaces, in the order of include/batcheig.h.

  public :: batcheigCreate, batcheigCreateWithBackend, batcheigDestroy
  public :: batcheigSetStream, batcheigGetStream, batcheigGetBackend
  public :: batcheigSetDevices, batcheigGetDevices
  public :: batcheigGetVersion, batcheigGetStatusString, batcheigGetErrorArgument
  public :: batcheigCreateParams, batcheigDestroyParams
  public :: batcheigParamsSetTolerance, batcheigParamsGetTolerance
  public :: batcheigParamsSetMaxIterations, batcheigParamsGetMaxIterations
  public :: batcheigParamsSetAlgorithm, batcheigParamsGetAlgorithm
  public :: batcheigParamsSetStreaming, batcheigParamsGetStreaming
  public :: batcheigSgeevBatched_bufferSize, batcheigDgeevBatched_bufferSize
  public :: batcheigCgeevBatched_bufferSize, batcheigZgeevBatched_bufferSize
  public :: batcheigSgeevBatched, batcheigDgeevBatched
  public :: batcheigCgeevBatched, batcheigZgeevBatched
  public :: batcheigParamsSetMaxSweeps, batcheigParamsGetMaxSweeps
  public :: batcheigParamsSetSortEigenvalues, batcheigParamsGetSortEigenvalues
  public :: batcheigParamsSetJacobiOutputs, batcheigParamsGetJacobiOutputs
  public :: batcheigSsyevjBatched_bufferSize, batcheigDsyevjBatched_bufferSize
  public :: batcheigCheevjBatched_bufferSize, batcheigZheevjBatched_bufferSize
  public :: batcheigSsyevjBatched, batcheigDsyevjBatched
  public :: batcheigCheevjBatched, batcheigZheevjBatched

  interface
    ! --- handle -------------------------------------------------------------
    integer(c_int) function batcheigCreate(handle) bind(C, name='batcheigCreate')
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: handle
    end function
    integer(c_int) function batcheigCreateWithBackend(handle, backend) &
        bind(C, name='batcheigCreateWithBackend')
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: handle
      integer(c_int), value :: backend
    end function
    integer(c_int) function batcheigDestroy(handle) bind(C, name='batcheigDestroy')
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
    end function
    !> stream: a cudaStream_t as a c_ptr (c_null_ptr is the default stream).
    integer(c_int) function batcheigSetStream(handle, stream) bind(C, name='batcheigSetStream')
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, stream
    end function
    integer(c_int) function batcheigGetStream(handle, stream) bind(C, name='batcheigGetStream')
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      type(c_ptr), intent(out) :: stream
    end function
    integer(c_int) function batcheigGetBackend(handle, backend) bind(C, name='batcheigGetBackend')
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), intent(out) :: backend
    end function
    !> devices: `count` distinct CUDA device ordinals (0-based), an
    !> integer(c_int) array as a c_ptr (c_loc of a target array, c_null_ptr
    !> when count is 0; count 0 restores the default, the current device).
    !> BATCHEIG_STATUS_NOT_SUPPORTED on a handle of another backend than CUDA.
    !> batcheig_set_devices wraps it for an integer(c_int) array.
    integer(c_int) function batcheigSetDevices(handle, count, devices) &
        bind(C, name='batcheigSetDevices')
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, devices
      integer(c_int), value :: count
    end function
    !> devices: room for `capacity` ordinals (c_loc of a target array, or
    !> c_null_ptr when capacity is 0); count receives the length of the list
    !> (0: the default). batcheig_get_devices wraps it.
    integer(c_int) function batcheigGetDevices(handle, capacity, devices, count) &
        bind(C, name='batcheigGetDevices')
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, devices
      integer(c_int), value :: capacity
      integer(c_int), intent(out) :: count
    end function

    ! --- information --------------------------------------------------------
    integer(c_int) function batcheigGetVersion(version) bind(C, name='batcheigGetVersion')
      import :: c_int
      integer(c_int), intent(out) :: version
    end function
    !> A C string (const char *); batcheig_status_string converts it.
    type(c_ptr) function batcheigGetStatusString(status) bind(C, name='batcheigGetStatusString')
      import :: c_int, c_ptr
      integer(c_int), value :: status
    end function
    integer(c_int) function batcheigGetErrorArgument(handle, position) &
        bind(C, name='batcheigGetErrorArgument')
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), intent(out) :: position
    end function

    ! --- params -------------------------------------------------------------
    integer(c_int) function batcheigCreateParams(params) bind(C, name='batcheigCreateParams')
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: params
    end function
    integer(c_int) function batcheigDestroyParams(params) bind(C, name='batcheigDestroyParams')
      import :: c_int, c_ptr
      type(c_ptr), value :: params
    end function
    integer(c_int) function batcheigParamsSetTolerance(params, tol) &
        bind(C, name='batcheigParamsSetTolerance')
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: params
      real(c_double), value :: tol
    end function
    integer(c_int) function batcheigParamsGetTolerance(params, tol) &
        bind(C, name='batcheigParamsGetTolerance')
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: params
      real(c_double), intent(out) :: tol
    end function
    integer(c_int) function batcheigParamsSetMaxIterations(params, maxIterations) &
        bind(C, name='batcheigParamsSetMaxIterations')
      import :: c_int, c_ptr
      type(c_ptr), value :: params
      integer(c_int), value :: maxIterations
    end function
    integer(c_int) function batcheigParamsGetMaxIterations(params, maxIterations) &
        bind(C, name='batcheigParamsGetMaxIterations')
      import :: c_int, c_ptr
      type(c_ptr), value :: params
      integer(c_int), intent(out) :: maxIterations
    end function
    integer(c_int) function batcheigParamsSetAlgorithm(params, algorithm) &
        bind(C, name='batcheigParamsSetAlgorithm')
      import :: c_int, c_ptr
      type(c_ptr), value :: params
      integer(c_int), value :: algorithm
    end function
    integer(c_int) function batcheigParamsGetAlgorithm(params, algorithm) &
        bind(C, name='batcheigParamsGetAlgorithm')
      import :: c_int, c_ptr
      type(c_ptr), value :: params
      integer(c_int), intent(out) :: algorithm
    end function
    !> Host arrays on the CUDA backend: matrices per chunk (0: automatic)
    !> and streams per device (1 to 16, 0: automatic).
    integer(c_int) function batcheigParamsSetStreaming(params, chunk, streams) &
        bind(C, name='batcheigParamsSetStreaming')
      import :: c_int, c_ptr
      type(c_ptr), value :: params
      integer(c_int), value :: chunk, streams
    end function
    integer(c_int) function batcheigParamsGetStreaming(params, chunk, streams) &
        bind(C, name='batcheigParamsGetStreaming')
      import :: c_int, c_ptr
      type(c_ptr), value :: params
      integer(c_int), intent(out) :: chunk, streams
    end function

    ! --- geevBatched workspace queries (lwork in bytes; pointers may be null)
    integer(c_int) function batcheigSgeevBatched_bufferSize(handle, jobvl, jobvr, n, A, lda, &
        wr, wi, VL, ldvl, VR, ldvr, lwork, params, batch) &
        bind(C, name='batcheigSgeevBatched_bufferSize')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, A, wr, wi, VL, VR, params
      integer(c_int), value :: jobvl, jobvr, n, lda, ldvl, ldvr, batch
      integer(c_size_t), intent(out) :: lwork
    end function
    integer(c_int) function batcheigDgeevBatched_bufferSize(handle, jobvl, jobvr, n, A, lda, &
        wr, wi, VL, ldvl, VR, ldvr, lwork, params, batch) &
        bind(C, name='batcheigDgeevBatched_bufferSize')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, A, wr, wi, VL, VR, params
      integer(c_int), value :: jobvl, jobvr, n, lda, ldvl, ldvr, batch
      integer(c_size_t), intent(out) :: lwork
    end function
    integer(c_int) function batcheigCgeevBatched_bufferSize(handle, jobvl, jobvr, n, A, lda, &
        W, VL, ldvl, VR, ldvr, lwork, params, batch) &
        bind(C, name='batcheigCgeevBatched_bufferSize')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, A, W, VL, VR, params
      integer(c_int), value :: jobvl, jobvr, n, lda, ldvl, ldvr, batch
      integer(c_size_t), intent(out) :: lwork
    end function
    integer(c_int) function batcheigZgeevBatched_bufferSize(handle, jobvl, jobvr, n, A, lda, &
        W, VL, ldvl, VR, ldvr, lwork, params, batch) &
        bind(C, name='batcheigZgeevBatched_bufferSize')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, A, W, VL, VR, params
      integer(c_int), value :: jobvl, jobvr, n, lda, ldvl, ldvr, batch
      integer(c_size_t), intent(out) :: lwork
    end function

    ! --- geevBatched ----------------------------------------------------------
    integer(c_int) function batcheigSgeevBatched(handle, jobvl, jobvr, n, A, lda, wr, wi, &
        VL, ldvl, VR, ldvr, work, lwork, info, params, batch) &
        bind(C, name='batcheigSgeevBatched')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, A, wr, wi, VL, VR, work, info, params
      integer(c_int), value :: jobvl, jobvr, n, lda, ldvl, ldvr, batch
      integer(c_size_t), value :: lwork
    end function
    integer(c_int) function batcheigDgeevBatched(handle, jobvl, jobvr, n, A, lda, wr, wi, &
        VL, ldvl, VR, ldvr, work, lwork, info, params, batch) &
        bind(C, name='batcheigDgeevBatched')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, A, wr, wi, VL, VR, work, info, params
      integer(c_int), value :: jobvl, jobvr, n, lda, ldvl, ldvr, batch
      integer(c_size_t), value :: lwork
    end function
    integer(c_int) function batcheigCgeevBatched(handle, jobvl, jobvr, n, A, lda, W, &
        VL, ldvl, VR, ldvr, work, lwork, info, params, batch) &
        bind(C, name='batcheigCgeevBatched')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, A, W, VL, VR, work, info, params
      integer(c_int), value :: jobvl, jobvr, n, lda, ldvl, ldvr, batch
      integer(c_size_t), value :: lwork
    end function
    integer(c_int) function batcheigZgeevBatched(handle, jobvl, jobvr, n, A, lda, W, &
        VL, ldvl, VR, ldvr, work, lwork, info, params, batch) &
        bind(C, name='batcheigZgeevBatched')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, A, W, VL, VR, work, info, params
      integer(c_int), value :: jobvl, jobvr, n, lda, ldvl, ldvr, batch
      integer(c_size_t), value :: lwork
    end function

    ! --- Jacobi params ----------------------------------------------------------
    integer(c_int) function batcheigParamsSetMaxSweeps(params, maxSweeps) &
        bind(C, name='batcheigParamsSetMaxSweeps')
      import :: c_int, c_ptr
      type(c_ptr), value :: params
      integer(c_int), value :: maxSweeps
    end function
    integer(c_int) function batcheigParamsGetMaxSweeps(params, maxSweeps) &
        bind(C, name='batcheigParamsGetMaxSweeps')
      import :: c_int, c_ptr
      type(c_ptr), value :: params
      integer(c_int), intent(out) :: maxSweeps
    end function
    integer(c_int) function batcheigParamsSetSortEigenvalues(params, sort) &
        bind(C, name='batcheigParamsSetSortEigenvalues')
      import :: c_int, c_ptr
      type(c_ptr), value :: params
      integer(c_int), value :: sort
    end function
    integer(c_int) function batcheigParamsGetSortEigenvalues(params, sort) &
        bind(C, name='batcheigParamsGetSortEigenvalues')
      import :: c_int, c_ptr
      type(c_ptr), value :: params
      integer(c_int), intent(out) :: sort
    end function
    !> sweeps: int array of batch elements, residual: double array of batch
    !> elements (c_loc(...) of target arrays, or c_null_ptr). The pointers
    !> are stored in the params object, not copied.
    integer(c_int) function batcheigParamsSetJacobiOutputs(params, sweeps, residual) &
        bind(C, name='batcheigParamsSetJacobiOutputs')
      import :: c_int, c_ptr
      type(c_ptr), value :: params, sweeps, residual
    end function
    integer(c_int) function batcheigParamsGetJacobiOutputs(params, sweeps, residual) &
        bind(C, name='batcheigParamsGetJacobiOutputs')
      import :: c_int, c_ptr
      type(c_ptr), value :: params
      type(c_ptr), intent(out) :: sweeps, residual
    end function

    ! --- syevj / heevj workspace queries -----------------------------------------
    integer(c_int) function batcheigSsyevjBatched_bufferSize(handle, jobz, uplo, n, A, lda, W, &
        lwork, params, batch) bind(C, name='batcheigSsyevjBatched_bufferSize')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, A, W, params
      integer(c_int), value :: jobz, uplo, n, lda, batch
      integer(c_size_t), intent(out) :: lwork
    end function
    integer(c_int) function batcheigDsyevjBatched_bufferSize(handle, jobz, uplo, n, A, lda, W, &
        lwork, params, batch) bind(C, name='batcheigDsyevjBatched_bufferSize')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, A, W, params
      integer(c_int), value :: jobz, uplo, n, lda, batch
      integer(c_size_t), intent(out) :: lwork
    end function
    integer(c_int) function batcheigCheevjBatched_bufferSize(handle, jobz, uplo, n, A, lda, W, &
        lwork, params, batch) bind(C, name='batcheigCheevjBatched_bufferSize')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, A, W, params
      integer(c_int), value :: jobz, uplo, n, lda, batch
      integer(c_size_t), intent(out) :: lwork
    end function
    integer(c_int) function batcheigZheevjBatched_bufferSize(handle, jobz, uplo, n, A, lda, W, &
        lwork, params, batch) bind(C, name='batcheigZheevjBatched_bufferSize')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, A, W, params
      integer(c_int), value :: jobz, uplo, n, lda, batch
      integer(c_size_t), intent(out) :: lwork
    end function

    ! --- syevj / heevj -------------------------------------------------------------
    integer(c_int) function batcheigSsyevjBatched(handle, jobz, uplo, n, A, lda, W, work, &
        lwork, info, params, batch) bind(C, name='batcheigSsyevjBatched')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, A, W, work, info, params
      integer(c_int), value :: jobz, uplo, n, lda, batch
      integer(c_size_t), value :: lwork
    end function
    integer(c_int) function batcheigDsyevjBatched(handle, jobz, uplo, n, A, lda, W, work, &
        lwork, info, params, batch) bind(C, name='batcheigDsyevjBatched')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, A, W, work, info, params
      integer(c_int), value :: jobz, uplo, n, lda, batch
      integer(c_size_t), value :: lwork
    end function
    integer(c_int) function batcheigCheevjBatched(handle, jobz, uplo, n, A, lda, W, work, &
        lwork, info, params, batch) bind(C, name='batcheigCheevjBatched')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, A, W, work, info, params
      integer(c_int), value :: jobz, uplo, n, lda, batch
      integer(c_size_t), value :: lwork
    end function
    integer(c_int) function batcheigZheevjBatched(handle, jobz, uplo, n, A, lda, W, work, &
        lwork, info, params, batch) bind(C, name='batcheigZheevjBatched')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, A, W, work, info, params
      integer(c_int), value :: jobz, uplo, n, lda, batch
      integer(c_size_t), value :: lwork
    end function
  end interface

  interface
    ! C library strlen, for batcheig_status_string.
    function c_strlen(s) bind(C, name='strlen') result(len)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: s
      integer(c_size_t) :: len
    end function
  end interface

  abstract interface
    ! The four Jacobi entry points (batcheig?syevjBatched, batcheig?heevjBatched),
    ! which the wrappers hand to jacobi_call.
    integer(c_int) function jacobi_entry(handle, jobz, uplo, n, A, lda, W, work, &
        lwork, info, params, batch) bind(C)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, A, W, work, info, params
      integer(c_int), value :: jobz, uplo, n, lda, batch
      integer(c_size_t), value :: lwork
    end function
  end interface

  ! -------------------------------------------------------------------------
  ! Layer 2: wrappers on assumed-shape host arrays.

  public :: batcheig_geev, batcheig_syevj, batcheig_heevj, batcheig_status_string
  public :: batcheig_set_devices, batcheig_get_devices

  !> Eigenvalues and optional left/right eigenvectors of a batch of general
  !> matrices (real: a, wr, wi, info; complex: a, w, info). See the module
  !> header and geev_d for the arguments.
  interface batcheig_geev
    module procedure geev_s, geev_d, geev_c, geev_z
  end interface

  !> Jacobi eigensolver for a batch of real symmetric matrices.
  interface batcheig_syevj
    module procedure syevj_s, syevj_d
  end interface

  !> Jacobi eigensolver for a batch of Hermitian matrices (complex); real
  !> symmetric matrices are accepted too and go to batcheig_syevj.
  interface batcheig_heevj
    module procedure heevj_c, heevj_z, syevj_s, syevj_d
  end interface

  ! State of one wrapper call: sizes taken from the arrays, the first error
  ! found, and the handle/params it created (destroyed in finish).
  type :: wrapper_call
    character(len=24) :: name = ''
    integer(c_int) :: n = 0, lda = 1, batch = 0
    integer(c_int) :: status = BATCHEIG_STATUS_SUCCESS
    character(len=:), allocatable :: msg
    type(c_ptr) :: handle = c_null_ptr
    type(c_ptr) :: params = c_null_ptr
    logical :: own_handle = .false., own_params = .false.
    ! Jacobi outputs of a user params object, restored in finish.
    logical :: restore_outputs = .false.
    type(c_ptr) :: old_sweeps = c_null_ptr, old_residual = c_null_ptr
  contains
    procedure :: start => call_start
    procedure :: ok => call_ok
    procedure :: go => call_go
    procedure :: error => call_error
    procedure :: check_values => call_check_values
    procedure :: check_info => call_check_info
    procedure :: check_vectors => call_check_vectors
    procedure :: check_diag => call_check_diag
    procedure :: modes => call_modes
    procedure :: open => call_open
    procedure :: jacobi_outputs => call_jacobi_outputs
    procedure :: c_status => call_c_status
    procedure :: finish => call_finish
  end type

contains

  ! =========================================================================
  ! Helpers

  !> English description of a status code (batcheigGetStatusString).
  function batcheig_status_string(status) result(str)
    integer(c_int), intent(in) :: status
    character(len=:), allocatable :: str
    type(c_ptr) :: p
    character(kind=c_char), pointer :: chars(:)
    integer :: i, length
    p = batcheigGetStatusString(status)
    if (.not. c_associated(p)) then
      str = ''
      return
    end if
    length = int(c_strlen(p))
    call c_f_pointer(p, chars, [length])
    allocate (character(len=length) :: str)
    do i = 1, length
      str(i:i) = chars(i)
    end do
  end function

  ! Decimal form of i. (No internal write: libgfortran's format parsing
  ! trips AddressSanitizer's strict_string_checks.)
  pure function itoa(i) result(s)
    integer, intent(in) :: i
    character(len=:), allocatable :: s
    integer :: v
    v = abs(i)
    s = ''
    do
      s = achar(iachar('0') + mod(v, 10)) // s
      v = v / 10
      if (v == 0) exit
    end do
    if (i < 0) s = '-' // s
  end function

  pure function shape_str(shp) result(s)
    integer, intent(in) :: shp(:)
    character(len=:), allocatable :: s
    integer :: k
    s = '('
    do k = 1, size(shp)
      s = s // itoa(shp(k))
      if (k < size(shp)) s = s // ','
    end do
    s = s // ')'
  end function

  !> Record the first error of the call.
  subroutine call_error(c, code, msg)
    class(wrapper_call), intent(inout) :: c
    integer(c_int), intent(in) :: code
    character(len=*), intent(in) :: msg
    if (c%status /= BATCHEIG_STATUS_SUCCESS) return
    c%status = code
    c%msg = trim(c%name) // ': ' // msg
  end subroutine

  logical function call_ok(c)
    class(wrapper_call), intent(in) :: c
    call_ok = c%status == BATCHEIG_STATUS_SUCCESS
  end function

  !> No error so far and something to compute.
  logical function call_go(c)
    class(wrapper_call), intent(in) :: c
    call_go = c%status == BATCHEIG_STATUS_SUCCESS .and. c%n > 0 .and. c%batch > 0
  end function

  !> Sizes from a(lda, n, batch).
  subroutine call_start(c, name, shp, contiguous)
    class(wrapper_call), intent(inout) :: c
    character(len=*), intent(in) :: name
    integer, intent(in) :: shp(3)
    logical, intent(in) :: contiguous
    c%name = name
    c%msg = ''
    if (.not. contiguous) then
      call c%error(BATCHEIG_STATUS_INVALID_VALUE, 'argument a is not contiguous in memory; ' // &
          'pass a whole array a(lda,n,batch) or a contiguous section a(:,:,b1:b2)')
    else if (shp(1) < shp(2)) then
      call c%error(BATCHEIG_STATUS_INVALID_VALUE, 'a has shape ' // shape_str(shp) // &
          ': size(a,1) (the leading dimension) must be >= size(a,2) (n)')
    else if (maxval(shp) > huge(0_c_int)) then
      call c%error(BATCHEIG_STATUS_INVALID_VALUE, 'a has shape ' // shape_str(shp) // &
          ': each extent must fit in a C int')
    end if
    c%lda = int(max(1, shp(1)), c_int)
    c%n = int(shp(2), c_int)
    c%batch = int(shp(3), c_int)
  end subroutine

  !> Eigenvalue arrays: shape (n, batch), contiguous.
  subroutine call_check_values(c, what, shp, contiguous)
    class(wrapper_call), intent(inout) :: c
    character(len=*), intent(in) :: what
    integer, intent(in) :: shp(2)
    logical, intent(in) :: contiguous
    if (.not. contiguous) then
      call c%error(BATCHEIG_STATUS_INVALID_VALUE, 'argument ' // what // ' is not contiguous in memory')
    else if (shp(1) /= c%n .or. shp(2) /= c%batch) then
      call c%error(BATCHEIG_STATUS_INVALID_VALUE, what // ' has shape ' // shape_str(shp) // &
          ', expected (n,batch) = ' // shape_str([int(c%n), int(c%batch)]))
    end if
  end subroutine

  !> info(batch), contiguous.
  subroutine call_check_info(c, sz, contiguous)
    class(wrapper_call), intent(inout) :: c
    integer, intent(in) :: sz
    logical, intent(in) :: contiguous
    call c%check_diag('info', sz, contiguous)
  end subroutine

  !> Per-matrix arrays (info, sweeps, residual): size batch, contiguous.
  subroutine call_check_diag(c, what, sz, contiguous)
    class(wrapper_call), intent(inout) :: c
    character(len=*), intent(in) :: what
    integer, intent(in) :: sz
    logical, intent(in) :: contiguous
    if (.not. contiguous) then
      call c%error(BATCHEIG_STATUS_INVALID_VALUE, 'argument ' // what // ' is not contiguous in memory')
    else if (sz /= c%batch) then
      call c%error(BATCHEIG_STATUS_INVALID_VALUE, what // ' has ' // itoa(sz) // &
          ' elements, expected batch = ' // itoa(int(c%batch)))
    end if
  end subroutine

  !> Eigenvector arrays: shape (ldv, n, batch) with ldv >= n, contiguous.
  subroutine call_check_vectors(c, what, shp, contiguous, ld)
    class(wrapper_call), intent(inout) :: c
    character(len=*), intent(in) :: what
    integer, intent(in) :: shp(3)
    logical, intent(in) :: contiguous
    integer(c_int), intent(out) :: ld
    ld = int(max(1, min(shp(1), int(huge(0_c_int)))), c_int)
    if (.not. contiguous) then
      call c%error(BATCHEIG_STATUS_INVALID_VALUE, 'argument ' // what // ' is not contiguous in memory')
    else if (shp(1) < c%n .or. shp(2) /= c%n .or. shp(3) /= c%batch) then
      call c%error(BATCHEIG_STATUS_INVALID_VALUE, what // ' has shape ' // shape_str(shp) // &
          ', expected (ldv,n,batch) with ldv >= n = ' // itoa(int(c%n)) // ', batch = ' // &
          itoa(int(c%batch)))
    end if
  end subroutine

  !> LAPACK-style jobz ('N', 'V'; default 'N') and uplo ('L', 'U'; default 'L').
  subroutine call_modes(c, jobz, uplo, ijobz, iuplo)
    class(wrapper_call), intent(inout) :: c
    character(len=1), intent(in), optional :: jobz, uplo
    integer(c_int), intent(out) :: ijobz, iuplo
    ijobz = BATCHEIG_EIG_MODE_NOVECTOR
    iuplo = BATCHEIG_FILL_MODE_LOWER
    if (present(jobz)) then
      select case (jobz)
      case ('N', 'n')
        ijobz = BATCHEIG_EIG_MODE_NOVECTOR
      case ('V', 'v')
        ijobz = BATCHEIG_EIG_MODE_VECTOR
      case default
        call c%error(BATCHEIG_STATUS_INVALID_VALUE, "jobz = '" // jobz // "', expected 'N' or 'V'")
      end select
    end if
    if (present(uplo)) then
      select case (uplo)
      case ('L', 'l')
        iuplo = BATCHEIG_FILL_MODE_LOWER
      case ('U', 'u')
        iuplo = BATCHEIG_FILL_MODE_UPPER
      case default
        call c%error(BATCHEIG_STATUS_INVALID_VALUE, "uplo = '" // uplo // "', expected 'L' or 'U'")
      end select
    end if
  end subroutine

  !> Use the caller's handle and params, or create a temporary handle.
  subroutine call_open(c, handle, params)
    class(wrapper_call), intent(inout) :: c
    type(c_ptr), intent(in), optional :: handle, params
    integer(c_int) :: st
    if (present(params)) c%params = params
    if (present(handle)) then
      c%handle = handle
    else
      st = batcheigCreate(c%handle)
      if (st /= BATCHEIG_STATUS_SUCCESS) then
        c%handle = c_null_ptr
        call c%error(st, 'batcheigCreate failed: ' // batcheig_status_string(st))
      else
        c%own_handle = .true.
      end if
    end if
  end subroutine

  !> Route the Jacobi diagnostics to sweeps/residual: on the caller's params
  !> (set now, restored in finish; an absent one keeps what the params had)
  !> or on a temporary params object.
  subroutine call_jacobi_outputs(c, sweeps, residual, want_sweeps, want_residual)
    class(wrapper_call), intent(inout) :: c
    type(c_ptr), intent(in) :: sweeps, residual
    logical, intent(in) :: want_sweeps, want_residual
    type(c_ptr) :: s, r
    integer(c_int) :: st
    if (.not. (want_sweeps .or. want_residual) .or. .not. c%ok()) return
    if (c_associated(c%params)) then
      st = batcheigParamsGetJacobiOutputs(c%params, c%old_sweeps, c%old_residual)
      if (st /= BATCHEIG_STATUS_SUCCESS) then
        call c%error(st, 'batcheigParamsGetJacobiOutputs failed: ' // batcheig_status_string(st))
        return
      end if
      c%restore_outputs = .true.
      s = c%old_sweeps
      r = c%old_residual
    else
      st = batcheigCreateParams(c%params)
      if (st /= BATCHEIG_STATUS_SUCCESS) then
        c%params = c_null_ptr
        call c%error(st, 'batcheigCreateParams failed: ' // batcheig_status_string(st))
        return
      end if
      c%own_params = .true.
      s = c_null_ptr
      r = c_null_ptr
    end if
    if (want_sweeps) s = sweeps
    if (want_residual) r = residual
    st = batcheigParamsSetJacobiOutputs(c%params, s, r)
    if (st /= BATCHEIG_STATUS_SUCCESS) &
      call c%error(st, 'batcheigParamsSetJacobiOutputs failed: ' // batcheig_status_string(st))
  end subroutine

  !> Record a failed C call, with the argument position for INVALID_VALUE.
  subroutine call_c_status(c, st, routine)
    class(wrapper_call), intent(inout) :: c
    integer(c_int), intent(in) :: st
    character(len=*), intent(in) :: routine
    integer(c_int) :: pos, st2
    if (st == BATCHEIG_STATUS_SUCCESS) return
    if (st == BATCHEIG_STATUS_INVALID_VALUE) then
      pos = 0
      st2 = batcheigGetErrorArgument(c%handle, pos)
      call c%error(st, routine // ' returned ' // batcheig_status_string(st) // &
          ' (C argument ' // itoa(int(pos)) // ')')
    else
      call c%error(st, routine // ' returned ' // batcheig_status_string(st))
    end if
  end subroutine

  !> Release what the call created, report the status, stop on an error the
  !> caller does not receive.
  subroutine call_finish(c, status, errmsg)
    class(wrapper_call), intent(inout) :: c
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(out), optional :: errmsg
    integer(c_int) :: st
    if (c%restore_outputs) st = batcheigParamsSetJacobiOutputs(c%params, c%old_sweeps, c%old_residual)
    if (c%own_params) st = batcheigDestroyParams(c%params)
    if (c%own_handle) st = batcheigDestroy(c%handle)
    c%own_params = .false.
    c%own_handle = .false.
    c%restore_outputs = .false.
    if (present(status)) status = c%status
    if (present(errmsg)) then
      errmsg = ''
      if (.not. c%ok()) errmsg = c%msg
    end if
    if (.not. c%ok() .and. .not. present(status)) then
      write (error_unit, *) c%msg   ! list-directed: no format string (see itoa)
      error stop 1
    end if
  end subroutine

  ! =========================================================================
  ! Devices

  !> The GPUs that calls with host arrays on a CUDA handle share
  !> (batcheigSetDevices): devices(:) holds distinct CUDA device ordinals
  !> (0-based, as CUDA numbers them); an empty array restores the default,
  !> the calling thread's current device. A handle on another backend gives
  !> BATCHEIG_STATUS_NOT_SUPPORTED. status and errmsg as for batcheig_geev
  !> (without status, an error stops the program).
  subroutine batcheig_set_devices(handle, devices, status, errmsg)
    type(c_ptr), intent(in) :: handle
    integer(c_int), intent(in), target :: devices(:)
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(out), optional :: errmsg
    type(wrapper_call) :: c
    type(c_ptr) :: p

    c%name = 'batcheig_set_devices'
    c%msg = ''
    c%handle = handle
    if (.not. is_contiguous(devices)) then
      call c%error(BATCHEIG_STATUS_INVALID_VALUE, 'argument devices is not contiguous in memory')
    end if
    if (c%ok()) then
      p = c_null_ptr
      if (size(devices) > 0) p = c_loc(devices)
      call c%c_status(batcheigSetDevices(handle, int(size(devices), c_int), p), 'batcheigSetDevices')
    end if
    call c%finish(status, errmsg)
  end subroutine

  !> The list set with batcheig_set_devices (batcheigGetDevices): devices
  !> is allocated to its length, size 0 for the default (the current
  !> device) and after an error. status and errmsg as for batcheig_geev.
  subroutine batcheig_get_devices(handle, devices, status, errmsg)
    type(c_ptr), intent(in) :: handle
    integer(c_int), allocatable, target, intent(out) :: devices(:)
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(out), optional :: errmsg
    type(wrapper_call) :: c
    integer(c_int) :: count, count2

    c%name = 'batcheig_get_devices'
    c%msg = ''
    c%handle = handle
    count = 0
    call c%c_status(batcheigGetDevices(handle, 0_c_int, c_null_ptr, count), 'batcheigGetDevices')
    if (c%ok() .and. count > 0) then
      allocate (devices(count))
      count2 = 0
      call c%c_status(batcheigGetDevices(handle, count, c_loc(devices), count2), 'batcheigGetDevices')
      if (c%ok() .and. count2 /= count) &
        call c%error(BATCHEIG_STATUS_INTERNAL_ERROR, 'the device list changed while it was read')
      if (.not. c%ok()) deallocate (devices)
    end if
    if (.not. allocated(devices)) allocate (devices(0))
    call c%finish(status, errmsg)
  end subroutine

  ! =========================================================================
  ! geev

  !> Real double precision: a(lda,n,batch) (overwritten), wr(n,batch),
  !> wi(n,batch), info(batch); optional vl(ldvl,n,batch) and
  !> vr(ldvr,n,batch) ask for left and right eigenvectors, stored as
  !> LAPACK's dgeev stores them (a complex pair j, j+1 as the real columns
  !> v(:,j) +- i v(:,j+1)).
  subroutine geev_d(a, wr, wi, info, vl, vr, handle, params, status, errmsg)
    real(c_double), intent(inout), target :: a(:, :, :)
    real(c_double), intent(out), target :: wr(:, :), wi(:, :)
    integer(c_int), intent(out), target :: info(:)
    real(c_double), intent(out), target, optional :: vl(:, :, :), vr(:, :, :)
    type(c_ptr), intent(in), optional :: handle, params
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(out), optional :: errmsg
    type(wrapper_call) :: c
    type(c_ptr) :: pvl, pvr
    integer(c_int) :: jobvl, jobvr, ldvl, ldvr

    call c%start('batcheig_geev', shape(a), is_contiguous(a))
    call c%check_values('wr', shape(wr), is_contiguous(wr))
    call c%check_values('wi', shape(wi), is_contiguous(wi))
    call c%check_info(size(info), is_contiguous(info))
    jobvl = BATCHEIG_EIG_MODE_NOVECTOR; ldvl = 1; pvl = c_null_ptr
    jobvr = BATCHEIG_EIG_MODE_NOVECTOR; ldvr = 1; pvr = c_null_ptr
    if (present(vl)) then
      jobvl = BATCHEIG_EIG_MODE_VECTOR
      call c%check_vectors('vl', shape(vl), is_contiguous(vl), ldvl)
      if (c%go()) pvl = c_loc(vl)
    end if
    if (present(vr)) then
      jobvr = BATCHEIG_EIG_MODE_VECTOR
      call c%check_vectors('vr', shape(vr), is_contiguous(vr), ldvr)
      if (c%go()) pvr = c_loc(vr)
    end if
    if (c%go()) call c%open(handle, params)
    if (c%go()) call c%c_status(batcheigDgeevBatched(c%handle, jobvl, jobvr, c%n, c_loc(a), &
        c%lda, c_loc(wr), c_loc(wi), pvl, ldvl, pvr, ldvr, c_null_ptr, 0_c_size_t, &
        c_loc(info), c%params, c%batch), 'batcheigDgeevBatched')
    if (c%ok() .and. c%n == 0) info = 0
    call c%finish(status, errmsg)
  end subroutine

  !> Real single precision; as geev_d.
  subroutine geev_s(a, wr, wi, info, vl, vr, handle, params, status, errmsg)
    real(c_float), intent(inout), target :: a(:, :, :)
    real(c_float), intent(out), target :: wr(:, :), wi(:, :)
    integer(c_int), intent(out), target :: info(:)
    real(c_float), intent(out), target, optional :: vl(:, :, :), vr(:, :, :)
    type(c_ptr), intent(in), optional :: handle, params
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(out), optional :: errmsg
    type(wrapper_call) :: c
    type(c_ptr) :: pvl, pvr
    integer(c_int) :: jobvl, jobvr, ldvl, ldvr

    call c%start('batcheig_geev', shape(a), is_contiguous(a))
    call c%check_values('wr', shape(wr), is_contiguous(wr))
    call c%check_values('wi', shape(wi), is_contiguous(wi))
    call c%check_info(size(info), is_contiguous(info))
    jobvl = BATCHEIG_EIG_MODE_NOVECTOR; ldvl = 1; pvl = c_null_ptr
    jobvr = BATCHEIG_EIG_MODE_NOVECTOR; ldvr = 1; pvr = c_null_ptr
    if (present(vl)) then
      jobvl = BATCHEIG_EIG_MODE_VECTOR
      call c%check_vectors('vl', shape(vl), is_contiguous(vl), ldvl)
      if (c%go()) pvl = c_loc(vl)
    end if
    if (present(vr)) then
      jobvr = BATCHEIG_EIG_MODE_VECTOR
      call c%check_vectors('vr', shape(vr), is_contiguous(vr), ldvr)
      if (c%go()) pvr = c_loc(vr)
    end if
    if (c%go()) call c%open(handle, params)
    if (c%go()) call c%c_status(batcheigSgeevBatched(c%handle, jobvl, jobvr, c%n, c_loc(a), &
        c%lda, c_loc(wr), c_loc(wi), pvl, ldvl, pvr, ldvr, c_null_ptr, 0_c_size_t, &
        c_loc(info), c%params, c%batch), 'batcheigSgeevBatched')
    if (c%ok() .and. c%n == 0) info = 0
    call c%finish(status, errmsg)
  end subroutine

  !> Complex double precision: a(lda,n,batch), w(n,batch), info(batch);
  !> optional vl, vr(ldv,n,batch) of complex eigenvectors.
  subroutine geev_z(a, w, info, vl, vr, handle, params, status, errmsg)
    complex(c_double_complex), intent(inout), target :: a(:, :, :)
    complex(c_double_complex), intent(out), target :: w(:, :)
    integer(c_int), intent(out), target :: info(:)
    complex(c_double_complex), intent(out), target, optional :: vl(:, :, :), vr(:, :, :)
    type(c_ptr), intent(in), optional :: handle, params
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(out), optional :: errmsg
    type(wrapper_call) :: c
    type(c_ptr) :: pvl, pvr
    integer(c_int) :: jobvl, jobvr, ldvl, ldvr

    call c%start('batcheig_geev', shape(a), is_contiguous(a))
    call c%check_values('w', shape(w), is_contiguous(w))
    call c%check_info(size(info), is_contiguous(info))
    jobvl = BATCHEIG_EIG_MODE_NOVECTOR; ldvl = 1; pvl = c_null_ptr
    jobvr = BATCHEIG_EIG_MODE_NOVECTOR; ldvr = 1; pvr = c_null_ptr
    if (present(vl)) then
      jobvl = BATCHEIG_EIG_MODE_VECTOR
      call c%check_vectors('vl', shape(vl), is_contiguous(vl), ldvl)
      if (c%go()) pvl = c_loc(vl)
    end if
    if (present(vr)) then
      jobvr = BATCHEIG_EIG_MODE_VECTOR
      call c%check_vectors('vr', shape(vr), is_contiguous(vr), ldvr)
      if (c%go()) pvr = c_loc(vr)
    end if
    if (c%go()) call c%open(handle, params)
    if (c%go()) call c%c_status(batcheigZgeevBatched(c%handle, jobvl, jobvr, c%n, c_loc(a), &
        c%lda, c_loc(w), pvl, ldvl, pvr, ldvr, c_null_ptr, 0_c_size_t, &
        c_loc(info), c%params, c%batch), 'batcheigZgeevBatched')
    if (c%ok() .and. c%n == 0) info = 0
    call c%finish(status, errmsg)
  end subroutine

  !> Complex single precision; as geev_z.
  subroutine geev_c(a, w, info, vl, vr, handle, params, status, errmsg)
    complex(c_float_complex), intent(inout), target :: a(:, :, :)
    complex(c_float_complex), intent(out), target :: w(:, :)
    integer(c_int), intent(out), target :: info(:)
    complex(c_float_complex), intent(out), target, optional :: vl(:, :, :), vr(:, :, :)
    type(c_ptr), intent(in), optional :: handle, params
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(out), optional :: errmsg
    type(wrapper_call) :: c
    type(c_ptr) :: pvl, pvr
    integer(c_int) :: jobvl, jobvr, ldvl, ldvr

    call c%start('batcheig_geev', shape(a), is_contiguous(a))
    call c%check_values('w', shape(w), is_contiguous(w))
    call c%check_info(size(info), is_contiguous(info))
    jobvl = BATCHEIG_EIG_MODE_NOVECTOR; ldvl = 1; pvl = c_null_ptr
    jobvr = BATCHEIG_EIG_MODE_NOVECTOR; ldvr = 1; pvr = c_null_ptr
    if (present(vl)) then
      jobvl = BATCHEIG_EIG_MODE_VECTOR
      call c%check_vectors('vl', shape(vl), is_contiguous(vl), ldvl)
      if (c%go()) pvl = c_loc(vl)
    end if
    if (present(vr)) then
      jobvr = BATCHEIG_EIG_MODE_VECTOR
      call c%check_vectors('vr', shape(vr), is_contiguous(vr), ldvr)
      if (c%go()) pvr = c_loc(vr)
    end if
    if (c%go()) call c%open(handle, params)
    if (c%go()) call c%c_status(batcheigCgeevBatched(c%handle, jobvl, jobvr, c%n, c_loc(a), &
        c%lda, c_loc(w), pvl, ldvl, pvr, ldvr, c_null_ptr, 0_c_size_t, &
        c_loc(info), c%params, c%batch), 'batcheigCgeevBatched')
    if (c%ok() .and. c%n == 0) info = 0
    call c%finish(status, errmsg)
  end subroutine

  ! =========================================================================
  ! syevj / heevj

  !> Real symmetric, double precision: a(lda,n,batch), of which only the
  !> uplo triangle is read ('L' default, or 'U'); w(n,batch) receives the
  !> eigenvalues in ascending order, info(batch) the per-matrix status.
  !> jobz = 'V' overwrites a(:,1:n,b) with the orthonormal eigenvectors;
  !> jobz = 'N' (default) computes eigenvalues only (a is then unspecified
  !> on exit). Optional sweeps(batch) and residual(batch) receive the
  !> executed sweeps and the final off(A)/||A||_F of each matrix (see
  !> batcheigParamsSetJacobiOutputs; with a caller's params, its Jacobi
  !> output pointers are set for the call and restored afterwards).
  subroutine syevj_d(a, w, info, jobz, uplo, sweeps, residual, handle, params, status, errmsg)
    real(c_double), intent(inout), target :: a(:, :, :)
    real(c_double), intent(out), target :: w(:, :)
    integer(c_int), intent(out), target :: info(:)
    character(len=1), intent(in), optional :: jobz, uplo
    integer(c_int), intent(out), target, optional :: sweeps(:)
    real(c_double), intent(out), target, optional :: residual(:)
    type(c_ptr), intent(in), optional :: handle, params
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(out), optional :: errmsg
    type(wrapper_call) :: c
    type(c_ptr) :: pa, pw

    call c%start('batcheig_syevj', shape(a), is_contiguous(a))
    call c%check_values('w', shape(w), is_contiguous(w))
    pa = c_null_ptr; pw = c_null_ptr
    if (c%go()) then
      pa = c_loc(a); pw = c_loc(w)
    end if
    call jacobi_call(c, batcheigDsyevjBatched, 'batcheigDsyevjBatched', pa, pw, info, jobz, uplo, &
        sweeps, residual, handle, params, status, errmsg)
  end subroutine

  !> Real symmetric, single precision; as syevj_d (residual stays double).
  subroutine syevj_s(a, w, info, jobz, uplo, sweeps, residual, handle, params, status, errmsg)
    real(c_float), intent(inout), target :: a(:, :, :)
    real(c_float), intent(out), target :: w(:, :)
    integer(c_int), intent(out), target :: info(:)
    character(len=1), intent(in), optional :: jobz, uplo
    integer(c_int), intent(out), target, optional :: sweeps(:)
    real(c_double), intent(out), target, optional :: residual(:)
    type(c_ptr), intent(in), optional :: handle, params
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(out), optional :: errmsg
    type(wrapper_call) :: c
    type(c_ptr) :: pa, pw

    call c%start('batcheig_syevj', shape(a), is_contiguous(a))
    call c%check_values('w', shape(w), is_contiguous(w))
    pa = c_null_ptr; pw = c_null_ptr
    if (c%go()) then
      pa = c_loc(a); pw = c_loc(w)
    end if
    call jacobi_call(c, batcheigSsyevjBatched, 'batcheigSsyevjBatched', pa, pw, info, jobz, uplo, &
        sweeps, residual, handle, params, status, errmsg)
  end subroutine

  !> Complex Hermitian, double precision: a(lda,n,batch) complex, w(n,batch)
  !> real; otherwise as syevj_d (imaginary parts of the diagonal are ignored).
  subroutine heevj_z(a, w, info, jobz, uplo, sweeps, residual, handle, params, status, errmsg)
    complex(c_double_complex), intent(inout), target :: a(:, :, :)
    real(c_double), intent(out), target :: w(:, :)
    integer(c_int), intent(out), target :: info(:)
    character(len=1), intent(in), optional :: jobz, uplo
    integer(c_int), intent(out), target, optional :: sweeps(:)
    real(c_double), intent(out), target, optional :: residual(:)
    type(c_ptr), intent(in), optional :: handle, params
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(out), optional :: errmsg
    type(wrapper_call) :: c
    type(c_ptr) :: pa, pw

    call c%start('batcheig_heevj', shape(a), is_contiguous(a))
    call c%check_values('w', shape(w), is_contiguous(w))
    pa = c_null_ptr; pw = c_null_ptr
    if (c%go()) then
      pa = c_loc(a); pw = c_loc(w)
    end if
    call jacobi_call(c, batcheigZheevjBatched, 'batcheigZheevjBatched', pa, pw, info, jobz, uplo, &
        sweeps, residual, handle, params, status, errmsg)
  end subroutine

  !> Complex Hermitian, single precision; as heevj_z (residual stays double).
  subroutine heevj_c(a, w, info, jobz, uplo, sweeps, residual, handle, params, status, errmsg)
    complex(c_float_complex), intent(inout), target :: a(:, :, :)
    real(c_float), intent(out), target :: w(:, :)
    integer(c_int), intent(out), target :: info(:)
    character(len=1), intent(in), optional :: jobz, uplo
    integer(c_int), intent(out), target, optional :: sweeps(:)
    real(c_double), intent(out), target, optional :: residual(:)
    type(c_ptr), intent(in), optional :: handle, params
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(out), optional :: errmsg
    type(wrapper_call) :: c
    type(c_ptr) :: pa, pw

    call c%start('batcheig_heevj', shape(a), is_contiguous(a))
    call c%check_values('w', shape(w), is_contiguous(w))
    pa = c_null_ptr; pw = c_null_ptr
    if (c%go()) then
      pa = c_loc(a); pw = c_loc(w)
    end if
    call jacobi_call(c, batcheigCheevjBatched, 'batcheigCheevjBatched', pa, pw, info, jobz, uplo, &
        sweeps, residual, handle, params, status, errmsg)
  end subroutine

  !> The rest of a Jacobi wrapper once a and w are checked (c%start,
  !> c%check_values; pa and pw their addresses where c%go(), else null): the
  !> other arguments, the handle, the call to entry (routine: its name, for
  !> messages) and the end of the call.
  subroutine jacobi_call(c, entry, routine, pa, pw, info, jobz, uplo, sweeps, residual, handle, params, &
      status, errmsg)
    type(wrapper_call), intent(inout) :: c
    procedure(jacobi_entry) :: entry
    character(len=*), intent(in) :: routine
    type(c_ptr), intent(in) :: pa, pw
    integer(c_int), intent(out), target :: info(:)
    character(len=1), intent(in), optional :: jobz, uplo
    integer(c_int), intent(out), target, optional :: sweeps(:)
    real(c_double), intent(out), target, optional :: residual(:)
    type(c_ptr), intent(in), optional :: handle, params
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(out), optional :: errmsg
    type(c_ptr) :: psw, pres
    integer(c_int) :: ijobz, iuplo

    call c%check_info(size(info), is_contiguous(info))
    call c%modes(jobz, uplo, ijobz, iuplo)
    psw = c_null_ptr; pres = c_null_ptr
    if (present(sweeps)) then
      call c%check_diag('sweeps', size(sweeps), is_contiguous(sweeps))
      if (c%go()) psw = c_loc(sweeps)
    end if
    if (present(residual)) then
      call c%check_diag('residual', size(residual), is_contiguous(residual))
      if (c%go()) pres = c_loc(residual)
    end if
    if (c%go()) call c%open(handle, params)
    if (c%go()) call c%jacobi_outputs(psw, pres, present(sweeps), present(residual))
    if (c%go()) call c%c_status(entry(c%handle, ijobz, iuplo, c%n, pa, c%lda, pw, c_null_ptr, &
        0_c_size_t, c_loc(info), c%params, c%batch), routine)
    if (c%ok() .and. c%n == 0) then
      info = 0
      if (present(sweeps)) sweeps = 0
      if (present(residual)) residual = 0
    end if
    call c%finish(status, errmsg)
  end subroutine

end module batcheig
